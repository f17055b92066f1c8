package org.cloudtalk.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.cloudtalk.status.sample.EndpointSettings;
import org.cloudtalk.status.sample.SystemFiles;

/** A sysfs/procfs layout in a temp directory whose counters a test moves by hand. */
public final class FakeSystem {
    public static final String NIC = "eth9";
    public static final String DISK = "vdz";

    private final Path root;
    private long rx;
    private long tx;
    private long sectorsRead;
    private long sectorsWritten;
    private long busyMillis;

    public FakeSystem(Path root) {
        this.root = root;
        try {
            Files.createDirectories(root.resolve("sys/class/net/" + NIC + "/statistics"));
            Files.createDirectories(root.resolve("proc/self"));
            Files.writeString(root.resolve("sys/class/net/" + NIC + "/speed"), "10000\n");
            Files.writeString(
                    root.resolve("proc/self/mountinfo"), "22 1 253:0 / / rw,relatime - ext4 /dev/" + DISK + " rw\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        write();
    }

    public SystemFiles files() {
        return new SystemFiles(root.resolve("sys"), root.resolve("proc"));
    }

    public EndpointSettings endpoint(InetAddress address) {
        return new EndpointSettings(
                address, NIC, Optional.of(DISK), 10_000_000_000L, 10_000_000_000L, 200L << 20, 100L << 20);
    }

    public void add(long rxBytes, long txBytes, long readBytes, long writtenBytes, long busy) {
        rx += rxBytes;
        tx += txBytes;
        sectorsRead += readBytes / 512;
        sectorsWritten += writtenBytes / 512;
        busyMillis += busy;
        write();
    }

    public void removeNic() {
        try {
            Files.delete(root.resolve("sys/class/net/" + NIC + "/statistics/rx_bytes"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write() {
        try {
            Path stats = root.resolve("sys/class/net/" + NIC + "/statistics");
            Files.writeString(stats.resolve("rx_bytes"), rx + "\n");
            Files.writeString(stats.resolve("tx_bytes"), tx + "\n");
            Files.writeString(
                    root.resolve("proc/diskstats"),
                    "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                            + " 253       0 " + DISK + " 10 0 " + sectorsRead + " 5 20 0 " + sectorsWritten
                            + " 7 0 " + busyMillis + " 12 0 0 0 0 0 0\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
