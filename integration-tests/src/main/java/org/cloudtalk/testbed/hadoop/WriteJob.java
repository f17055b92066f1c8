package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import org.cloudtalk.testbed.TestbedException;

/**
 * What one HDFS writer does: writes {@code files} files of {@code bytes} bytes each with {@code replication}
 * replicas under {@code /writes/NAME}, one after the other, pausing a random time in [{@code minPause},
 * {@code maxPause}] (seeded by {@code seed}) before each.
 */
public record WriteJob(
        String name, int files, long bytes, int replication, Duration minPause, Duration maxPause, long seed) {
    public WriteJob {
        requireNonNull(name, "name is null");
        requireNonNull(minPause, "minPause is null");
        requireNonNull(maxPause, "maxPause is null");
        check(name.matches("[A-Za-z0-9._-]{1,40}"), "name", name, "1-40 letters, digits, '.', '_' or '-'");
        check(files >= 1 && files <= 100_000, "files", files, "must be between 1 and 100000");
        check(bytes >= 1 && bytes <= (64L << 30), "bytes", bytes, "must be between 1 and 64 GiB");
        check(replication >= 1 && replication <= 16, "replication", replication, "must be between 1 and 16");
        check(
                !minPause.isNegative() && minPause.compareTo(maxPause) <= 0,
                "pause",
                minPause + "-" + maxPause,
                "must be 0 or more, the minimum not above the maximum");
    }

    private static void check(boolean ok, String key, Object value, String reason) {
        if (!ok) {
            throw new TestbedException("Invalid value " + value + " for " + key + ": " + reason);
        }
    }
}
