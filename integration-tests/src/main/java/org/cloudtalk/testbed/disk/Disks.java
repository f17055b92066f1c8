package org.cloudtalk.testbed.disk;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * Per-host disks throttled to a configured rate: a loop device over a sparse file (direct I/O, ext4), mounted as the
 * host's data directory, with a blkio throttle rule for reads and writes in the root cgroup and a per-device dirty
 * limit so that buffered writes are held to the rate too. cgroup v2's {@code io.max} is not available on this machine
 * kind (io sits on the v1 blkio hierarchy: docs/architecture.md, platform facts).
 */
public final class Disks {
    /** Each host's disk: room for a few HDFS blocks and a disk hog's file. */
    static final long SIZE_BYTES = 2L << 30;

    private static final Path BLKIO = Path.of("/sys/fs/cgroup/blkio");
    private static final String[] THROTTLES = {"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device"};

    private Disks() {}

    /** The host's data directory (its disk's mount point) under the run directory. */
    public static Path dataDirectory(Path runDir, Host host) {
        return runDir.resolve("disks").resolve(host.namespace());
    }

    /** Whether this machine can throttle loop devices: root, losetup, mkfs.ext4 and the v1 blkio throttle files. */
    public static Optional<String> unsupported() {
        if (!Commands.onPath("losetup") || !Commands.onPath("mkfs.ext4")) {
            return Optional.of("losetup and mkfs.ext4 are needed (util-linux, e2fsprogs)");
        }
        if (!Files.isWritable(BLKIO.resolve(THROTTLES[1]))) {
            return Optional.of("the blkio throttle (" + BLKIO.resolve(THROTTLES[1]) + ") is not writable: run as root"
                    + " on a kernel with the v1 blkio controller");
        }
        return Optional.empty();
    }

    /**
     * A directory {@code name} on {@code host}'s own disk, created and recorded for removal, or empty when the testbed
     * gave the host no disk; the caller deletes it (and forgets it in {@code state}) when done.
     */
    public static Optional<Path> directoryOnHostDisk(TestbedState state, Host host, String name) {
        if (find(state, host).isEmpty()) {
            return Optional.empty();
        }
        Path directory = dataDirectory(state.runDir(), host).resolve(name);
        state.addDirectory(directory);
        try {
            return Optional.of(Files.createDirectories(directory));
        } catch (IOException e) {
            throw new TestbedException("cannot create " + directory + ": " + e.getMessage(), e);
        }
    }

    /** {@code host}'s own disk, if the testbed gave it one ({@code --disk-rate}). */
    public static Optional<HostDisk> find(TestbedState state, Host host) {
        return state.snapshot().disks().stream()
                .filter(disk -> disk.namespace().equals(host.namespace()))
                .findFirst();
    }

    /** {@code host}'s own disk; a clear error when the testbed gave it none. */
    public static HostDisk of(TestbedState state, Host host) {
        return find(state, host)
                .orElseThrow(() -> new TestbedException(
                        host.namespace() + " has no disk of its own: bring the testbed up with --disk-rate MIBPS"));
    }

    /** Refuses {@code experiment} on a testbed that will have no disk per host, before it is brought up. */
    public static void requirePerHost(TestbedConfig config, String experiment) {
        if (config.diskMiBps() == 0) {
            throw TestbedException.invalidValue(0, "--disk-rate", needsDisks(experiment));
        }
    }

    /** Refuses {@code experiment} on a testbed without a disk per host. */
    public static void requirePerHost(TestbedState state, String experiment) {
        if (state.snapshot().disks().isEmpty()) {
            throw new TestbedException(needsDisks(experiment));
        }
    }

    private static String needsDisks(String experiment) {
        return experiment + " needs a disk per host: bring the testbed up with --disk-rate MIBPS";
    }

    /** Creates and throttles {@code host}'s disk to {@code mibPerSecond}, recording it first. */
    public static void create(TestbedState state, Host host, int mibPerSecond) {
        Path dir = state.runDir().resolve("disks");
        Path backing = dir.resolve(host.namespace() + ".img");
        Path mount = dataDirectory(state.runDir(), host);
        state.addDisk(new HostDisk(host.namespace(), backing.toString(), mount.toString()));
        try {
            Files.createDirectories(mount);
            try (RandomAccessFile file = new RandomAccessFile(backing.toFile(), "rw")) {
                file.setLength(SIZE_BYTES);
            }
        } catch (IOException e) {
            throw new TestbedException("cannot create the disk file " + backing + ": " + e.getMessage(), e);
        }
        String device = Commands.run("losetup", "--find", "--show", "--direct-io=on", backing.toString())
                .trim();
        Commands.run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", device);
        Commands.run("mount", device, mount.toString());
        throttle(device, mibPerSecond);
    }

    /** Throttles {@code disk} (reads and writes) to {@code mibPerSecond} from now on, e.g. to make it a slow disk. */
    public static void throttle(HostDisk disk, int mibPerSecond) {
        throttle("/dev/" + deviceName(disk), mibPerSecond);
    }

    private static void throttle(String device, int mibPerSecond) {
        String majMin = majorMinor(device);
        long bytesPerSecond = (long) mibPerSecond << 20;
        for (String throttle : THROTTLES) {
            write(BLKIO.resolve(throttle), majMin + " " + bytesPerSecond);
        }
        // Buffered writes reach the device in writeback, outside the writer's cgroup: hold this device's dirty pages
        // to about one second of its rate so that a writer waits for the throttled device, not for memory.
        Path bdi = Path.of("/sys/class/bdi", majMin);
        write(bdi.resolve("strict_limit"), "1");
        write(bdi.resolve("max_bytes"), Long.toString(Math.max(1L << 20, bytesPerSecond)));
    }

    /**
     * Writes every dirty page back and drops the machine's clean page cache, so that the next reads of files on the
     * hosts' disks meet their throttles instead of memory. Machine-wide: it costs other programs their cache too.
     */
    public static void dropPageCache() {
        Commands.run("sync");
        write(Path.of("/proc/sys/vm/drop_caches"), "1");
    }

    /** Removes what {@code disk} lists: unmounts, lifts the throttle, detaches the loop device, deletes the file. */
    public static List<String> remove(HostDisk disk) {
        List<String> removed = new ArrayList<>();
        if (Commands.attempt("umount", disk.mountPoint()).exit() == 0) {
            removed.add("mount " + disk.mountPoint());
        }
        for (String device : devicesOf(disk.backingFile())) {
            String majMin = majorMinor(device);
            for (String throttle : THROTTLES) {
                write(BLKIO.resolve(throttle), majMin + " 0");
            }
            if (Commands.attempt("losetup", "-d", device).exit() == 0) {
                removed.add("loop device " + device);
            }
        }
        try {
            if (Files.deleteIfExists(Path.of(disk.backingFile()))) {
                removed.add("disk file " + disk.backingFile());
            }
            Files.deleteIfExists(Path.of(disk.mountPoint()));
        } catch (IOException e) {
            throw new TestbedException("cannot delete " + disk.backingFile() + ": " + e.getMessage(), e);
        }
        return removed;
    }

    /** What of {@code disk} still exists: its loop devices, its mount, its file. */
    public static List<String> leftovers(HostDisk disk) {
        List<String> left = new ArrayList<>();
        devicesOf(disk.backingFile()).forEach(device -> left.add("loop device " + device));
        if (Commands.attempt("mountpoint", "-q", disk.mountPoint()).exit() == 0) {
            left.add("mount " + disk.mountPoint());
        }
        if (Files.exists(Path.of(disk.backingFile()))) {
            left.add("disk file " + disk.backingFile());
        }
        return left;
    }

    /** The loop device (e.g. {@code loop3}) of {@code disk}, as the status daemon's {@code disk} key names it. */
    public static String deviceName(HostDisk disk) {
        List<String> devices = devicesOf(disk.backingFile());
        if (devices.size() != 1) {
            throw new TestbedException("expected one loop device over " + disk.backingFile() + ", found " + devices);
        }
        return Path.of(devices.get(0)).getFileName().toString();
    }

    /** Loop devices backed by {@code backingFile} ({@code losetup -j}: "/dev/loop3: []: (/path)"). */
    static List<String> devicesOf(String backingFile) {
        if (!Files.exists(Path.of(backingFile))) {
            return List.of();
        }
        return Arrays.stream(Commands.run("losetup", "-j", backingFile).split("\n"))
                .filter(line -> line.startsWith("/dev/"))
                .map(line -> line.substring(0, line.indexOf(':')))
                .toList();
    }

    private static String majorMinor(String device) {
        String name = Path.of(device).getFileName().toString();
        try {
            return Files.readString(Path.of("/sys/class/block", name, "dev")).trim();
        } catch (IOException e) {
            throw new TestbedException("cannot read the device number of " + device + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, String value) {
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            throw new TestbedException("cannot write '" + value + "' to " + file + ": " + e.getMessage(), e);
        }
    }
}
