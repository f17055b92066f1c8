package org.cloudtalk.testbed;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * What {@code up} builds: {@code hosts} emulated hosts whose access links are shaped to {@code rateMbit} in both
 * directions, optionally delayed by {@code latencyMs}, their objects named under {@code prefix} and their data
 * addresses in {@code 10.<subnet>.0.0/16} (management addresses in the next /16), everything recorded under
 * {@code runDir}. With {@code diskMiBps} > 0 each host also gets a disk of its own throttled to that rate (its data
 * directory); 0 leaves disks out.
 */
public record TestbedConfig(
        String prefix, int hosts, int rateMbit, int latencyMs, int subnet, Path runDir, int diskMiBps) {
    /**
     * Default size: the largest N x R measured on the 2-core machine with every link within 10% of R and no run
     * CPU-bound while half the hosts send to the other half (docs/performance.md, "Testbed capacity").
     */
    public static final int DEFAULT_HOSTS = 48;

    public static final int DEFAULT_RATE_MBIT = 400;
    public static final String DEFAULT_PREFIX = "cttb";
    public static final int DEFAULT_SUBNET = 77;
    public static final Path DEFAULT_RUN_DIR = Path.of("/tmp/cloudtalk-testbed");

    public TestbedConfig {
        requireNonNull(prefix, "prefix is null");
        requireNonNull(runDir, "runDir is null");
        // Interface names are at most 15 characters: prefix + "-c" + up to 3 digits + slack.
        check(prefix.matches("[a-z][a-z0-9]{1,7}"), "--prefix", prefix, "2-8 lower-case letters or digits");
        check(hosts >= 2 && hosts <= 250, "--hosts", hosts, "must be between 2 and 250");
        check(rateMbit >= 1 && rateMbit <= 10_000, "--rate", rateMbit, "must be between 1 and 10000 Mbit/s");
        check(latencyMs >= 0 && latencyMs <= 10_000, "--latency", latencyMs, "must be between 0 and 10000 ms");
        check(subnet >= 16 && subnet <= 250, "--subnet", subnet, "must be between 16 and 250 (10.S.0.0/16)");
        check(
                diskMiBps >= 0 && diskMiBps <= 10_000,
                "--disk-rate",
                diskMiBps,
                "must be between 0 (no disks) and 10000 MiB/s");
    }

    public static TestbedConfig defaults() {
        return new TestbedConfig(
                DEFAULT_PREFIX, DEFAULT_HOSTS, DEFAULT_RATE_MBIT, 0, DEFAULT_SUBNET, DEFAULT_RUN_DIR, 0);
    }

    public TestbedConfig withHosts(int value) {
        return new TestbedConfig(prefix, value, rateMbit, latencyMs, subnet, runDir, diskMiBps);
    }

    public TestbedConfig withRate(int value) {
        return new TestbedConfig(prefix, hosts, value, latencyMs, subnet, runDir, diskMiBps);
    }

    public TestbedConfig withLatency(int value) {
        return new TestbedConfig(prefix, hosts, rateMbit, value, subnet, runDir, diskMiBps);
    }

    public TestbedConfig withNames(String newPrefix, int newSubnet, Path newRunDir) {
        return new TestbedConfig(newPrefix, hosts, rateMbit, latencyMs, newSubnet, newRunDir, diskMiBps);
    }

    public TestbedConfig withDiskRate(int value) {
        return new TestbedConfig(prefix, hosts, rateMbit, latencyMs, subnet, runDir, value);
    }

    /** The link rate in bits per second. */
    public long rateBits() {
        return rateMbit * 1_000_000L;
    }

    private static void check(boolean ok, String key, Object value, String reason) {
        if (!ok) {
            throw TestbedException.invalidValue(value, key, reason);
        }
    }
}
