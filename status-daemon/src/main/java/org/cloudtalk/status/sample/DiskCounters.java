package org.cloudtalk.status.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Cumulative counters of one block device from {@code /proc/diskstats}: bytes read and written (sectors there are
 * always 512 bytes) and milliseconds the device was busy.
 */
public record DiskCounters(long bytesRead, long bytesWritten, long busyMillis) {
    private static final int SECTOR = 512;

    static DiskCounters read(SystemFiles files, String device, BoundedReads reads) throws IOException {
        for (String line : reads.readAllLines(files.diskstats())) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 13 && fields[2].equals(device)) {
                return new DiskCounters(
                        Long.parseLong(fields[5]) * SECTOR,
                        Long.parseLong(fields[9]) * SECTOR,
                        Long.parseLong(fields[12]));
            }
        }
        throw new IOException("no device " + device + " in " + files.diskstats());
    }

    /** Whether {@code /proc/diskstats} has a line for this device name. */
    public static boolean isListed(SystemFiles files, String device) throws IOException {
        for (String line : Files.readAllLines(files.diskstats())) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 3 && fields[2].equals(device)) {
                return true;
            }
        }
        return false;
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
        List<String> stats = Files.readAllLines(files.diskstats());
        for (String line : stats) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 3 && fields[0].equals(majorMinor[0]) && fields[1].equals(majorMinor[1])) {
                return Optional.of(fields[2]);
            }
        }
        return Optional.empty();
    }
}
