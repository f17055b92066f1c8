package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * What one HDFS reader does: first reads a little of {@code warmUp}, unrecorded (the first read of a JVM pays for its
 * connections, class loading and the JIT); then {@code reads} times, pauses a random time in [{@code minPause},
 * {@code maxPause}], then reads one of {@code paths} (drawn at random, seeded by {@code seed}) from its first byte to
 * its last. A warm-up file with a replica on the reader's own host is read locally, so it loads no link and no read
 * ordering is asked about it (an ordering asked for a remote file would reserve its source for a whole block).
 */
public record ReadJob(
        String name, List<String> paths, String warmUp, int reads, Duration minPause, Duration maxPause, long seed) {
    public ReadJob {
        requireNonNull(name, "name is null");
        requireNonNull(warmUp, "warmUp is null");
        requireNonNull(minPause, "minPause is null");
        requireNonNull(maxPause, "maxPause is null");
        paths = List.copyOf(paths);
        JobValues.name(name);
        JobValues.check(!paths.isEmpty(), "paths", paths, "at least one file to read");
        JobValues.check(
                paths.stream().allMatch(p -> p.startsWith("/") && !p.contains("\n")),
                "paths",
                paths,
                "absolute HDFS paths");
        JobValues.check(
                warmUp.startsWith("/") && !warmUp.contains("\n"), "warm-up path", warmUp, "an absolute HDFS path");
        JobValues.check(reads >= 1 && reads <= 100_000, "reads", reads, "must be between 1 and 100000");
        JobValues.pauses(minPause, maxPause);
    }
}
