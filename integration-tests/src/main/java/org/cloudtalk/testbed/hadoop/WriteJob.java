package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

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
        JobValues.name(name);
        JobValues.check(files >= 1 && files <= 100_000, "files", files, "must be between 1 and 100000");
        JobValues.check(bytes >= 1 && bytes <= (64L << 30), "bytes", bytes, "must be between 1 and 64 GiB");
        JobValues.check(replication >= 1 && replication <= 16, "replication", replication, "must be between 1 and 16");
        JobValues.pauses(minPause, maxPause);
    }
}
