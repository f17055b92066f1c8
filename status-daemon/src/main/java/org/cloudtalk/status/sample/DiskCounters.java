package org.cloudtalk.status.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Cumulative counters of one block device from {@code /proc/diskstats}: bytes read and written (sectors there are
 * always 512 bytes) and milliseconds the device was busy.
 */
public record DiskCounters(long bytesRead, long bytesWritten, long busyMillis) {
    private static final int SECTOR = 512;

    /** Fields of a {@code /proc/diskstats} line: major, minor, name, then the counters up to the busy time. */
    private static final int FIELDS = 13;

    static DiskCounters read(SystemFiles files, String device, BoundedReads reads) throws IOException {
        String[] fields = named(reads.readAllLines(files.diskstats()), device)
                .orElseThrow(() -> new IOException("no device " + device + " in " + files.diskstats()));
        return new DiskCounters(
                Long.parseLong(fields[5]) * SECTOR, Long.parseLong(fields[9]) * SECTOR, Long.parseLong(fields[12]));
    }

    /** Whether {@code /proc/diskstats} has a line for this device name. */
    public static boolean isListed(SystemFiles files, String device) throws IOException {
        return named(Files.readAllLines(files.diskstats()), device).isPresent();
    }

    private static Optional<String[]> named(List<String> diskstats, String device) {
        return line(diskstats, fields -> fields[2].equals(device));
    }

    private static Optional<String[]> line(List<String> diskstats, Predicate<String[]> matches) {
        for (String line : diskstats) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= FIELDS && matches.test(fields)) {
                return Optional.of(fields);
            }
        }
        return Optional.empty();
    }

    /**
     * The block device holding {@code path}: the mount with the longest mount point that contains it, matched to
     * {@code /proc/diskstats} by major:minor. Empty for file systems without one (overlay, tmpfs).
     */
    public static Optional<String> deviceFor(SystemFiles files, Path path) throws IOException {
        Path real = path.toRealPath();
        String bestMountPoint = null;
        String bestDevice = null;
        for (String line : Files.readAllLines(files.mountinfo())) {
            String[] fields = line.split(" ");
            if (fields.length < 5) {
                continue;
            }
            String mountPoint = fields[4];
            if (real.startsWith(mountPoint)
                    && (bestMountPoint == null || mountPoint.length() > bestMountPoint.length())) {
                bestMountPoint = mountPoint;
                bestDevice = fields[2];
            }
        }
        if (bestDevice == null) {
            return Optional.empty();
        }
        String[] majorMinor = bestDevice.split(":");
        return line(
                        Files.readAllLines(files.diskstats()),
                        fields -> fields[0].equals(majorMinor[0]) && fields[1].equals(majorMinor[1]))
                .map(fields -> fields[2]);
    }
}
