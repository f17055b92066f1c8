package org.cloudtalk.testbed.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.testbed.TestbedConfig;
import picocli.CommandLine.Option;

/** The flags that shape a testbed (for {@code up}, and for {@code run} when it brings one up). */
final class TestbedOptions {
    @Option(names = "--hosts", paramLabel = "N", description = "emulated hosts (default: the measured default)")
    private String hosts;

    @Option(names = "--rate", paramLabel = "MBIT", description = "each access link's rate, both directions")
    private String rate;

    @Option(names = "--latency", paramLabel = "MS", description = "added latency (needs netem in the kernel)")
    private String latency;

    @Option(names = "--prefix", paramLabel = "P", description = "name prefix of everything the testbed creates")
    private String prefix;

    @Option(
            names = "--subnet",
            paramLabel = "S",
            description = "data addresses in 10.S.0.0/16, management in 10.S+1 (default 77): testbeds side by side need"
                    + " different prefixes and subnets")
    private String subnet;

    @Option(
            names = "--disk-rate",
            paramLabel = "MIBPS",
            description = "give each host a disk of its own throttled to MIBPS MiB/s (default: none)")
    private String diskRate;

    /** A flag given on the command line. */
    record Given(String flag, String value) {}

    /** The first of these flags given on the command line, or empty. */
    Optional<Given> firstGiven() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("--hosts", hosts);
        given.put("--rate", rate);
        given.put("--latency", latency);
        given.put("--prefix", prefix);
        given.put("--subnet", subnet);
        given.put("--disk-rate", diskRate);
        return given.entrySet().stream()
                .filter(flag -> flag.getValue() != null)
                .map(flag -> new Given(flag.getKey(), flag.getValue()))
                .findFirst();
    }

    TestbedConfig config(Path runDir) {
        TestbedConfig defaults = TestbedConfig.defaults();
        return new TestbedConfig(
                prefix == null ? defaults.prefix() : prefix,
                Values.number(hosts, "hosts", defaults.hosts()),
                Values.number(rate, "rate", defaults.rateMbit()),
                Values.number(latency, "latency", 0),
                Values.number(subnet, "subnet", defaults.subnet()),
                runDir,
                Values.number(diskRate, "disk-rate", 0));
    }
}
