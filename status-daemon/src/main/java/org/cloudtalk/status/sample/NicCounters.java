package org.cloudtalk.status.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** Cumulative byte counters of one network interface, and its link speed where the driver reports one. */
public record NicCounters(long rxBytes, long txBytes) {
    static NicCounters read(SystemFiles files, String iface, BoundedReads reads) throws IOException {
        return new NicCounters(
                readLong(files.netStatistic(iface, "rx_bytes"), reads),
                readLong(files.netStatistic(iface, "tx_bytes"), reads));
    }

    /** Whether the kernel knows an interface of this name (it has a directory under /sys/class/net). */
    public static boolean exists(SystemFiles files, String iface) {
        return Files.isDirectory(files.netInterface(iface));
    }

    /** Link speed in bits/s; empty when unknown (virtual NICs report -1 or refuse the read). */
    public static OptionalLong speedBitsPerSecond(SystemFiles files, String iface) {
        try {
            long megabits =
                    Long.parseLong(Files.readString(files.netSpeed(iface)).trim());
            return megabits > 0 ? OptionalLong.of(megabits * 1_000_000) : OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static long readLong(Path path, BoundedReads reads) throws IOException {
        try {
            return Long.parseLong(reads.readString(path).trim());
        } catch (NumberFormatException e) {
            throw new IOException("unexpected content in " + path, e);
        }
    }
}
