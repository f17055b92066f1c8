package org.cloudtalk.status.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.cli.StatusProbe;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk proof on real counters: a loop device that only this test writes to, direct writes of a known size at a
 * known pace, and the daemon's reported write use within 10% of that pace.
 */
class RealDiskTest {
    private static final int MIB = 1 << 20;
    private static final int PACE_MIB_PER_SECOND = 32;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void reportsPacedWritesWithinTenPercent(@TempDir Path temp) throws Exception {
        assumeThat("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/sbin/losetup")))
                .as("needs root and losetup for a loop device")
                .isTrue();
        Path backing = temp.resolve("disk.img");
        try (RandomAccessFile file = new RandomAccessFile(backing.toFile(), "rw")) {
            file.setLength(256L * MIB);
        }
        String device = run("losetup", "--find", "--show", backing.toString()).trim();
        try {
            Path key = temp.resolve("key");
            Files.writeString(key, "disk-test-key-0123456789abcdef");
            Map<String, String> properties = new HashMap<>();
            properties.put("key.file", key.toString());
            properties.put("bind", "127.0.0.1");
            properties.put("port", "0");
            properties.put("endpoints", "127.0.0.1");
            properties.put("interface", "lo");
            properties.put("disk", Path.of(device).getFileName().toString());
            properties.put("disk.write.capacity.mibps", "64");
            try (StatusDaemon daemon = StatusDaemon.start(DaemonConfig.from(properties))) {
                writePaced(Path.of(device), 2500);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int exit = StatusProbe.run(
                        new String[] {"127.0.0.1:" + daemon.localAddress().getPort(), "--key-file", key.toString()},
                        new PrintStream(out, true),
                        System.err);
                assertThat(exit).isZero();
                String json = out.toString();
                System.out.println("real disk, paced " + PACE_MIB_PER_SECOND + " MiB/s: " + json.trim());
                assertThat(RealTrafficTest.field(json, "diskWriteCapacityBytesPerSecond"))
                        .isEqualTo(64L * MIB);
                assertThat(RealTrafficTest.field(json, "diskWriteUseBytesPerSecond"))
                        .isBetween((long) (PACE_MIB_PER_SECOND * 0.9 * MIB), (long) (PACE_MIB_PER_SECOND * 1.1 * MIB));
                assertThat(RealTrafficTest.field(json, "diskReadUseBytesPerSecond"))
                        .isLessThan(MIB);
            }
        } finally {
            run("losetup", "-d", device);
        }
    }

    /** 1 MiB direct writes, one every 1/PACE s, for {@code millis}. */
    private static void writePaced(Path device, long millis) throws Exception {
        ByteBuffer block = ByteBuffer.allocateDirect(2 * MIB).alignedSlice(4096);
        block.limit(MIB);
        long interval = 1_000_000_000L / PACE_MIB_PER_SECOND;
        try (FileChannel channel = FileChannel.open(device, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            long start = System.nanoTime();
            long position = 0;
            for (long next = start; next - start < millis * 1_000_000L; next += interval) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                block.clear().limit(MIB);
                channel.write(block, position);
                position = (position + MIB) % (200L * MIB);
            }
        }
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(String.join(" ", command) + ": " + output)
                .isZero();
        return output;
    }
}
