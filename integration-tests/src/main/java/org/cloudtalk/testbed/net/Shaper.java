package org.cloudtalk.testbed.net;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.testbed.TestbedException;

/**
 * The access-link shaper, one per direction: an {@code htb} class at the link rate with a 2 MiB byte FIFO under it
 * (or a {@code netem} delay line when latency is asked for). Below ~1 MiB of queue TCP small queues starve the
 * flow, and {@code bfifo limit 64k} drops GSO packets locally (ARCHITECTURE.md, platform facts).
 */
public final class Shaper {
    private static final Pattern SENT_BYTES = Pattern.compile("class htb 1:1 .*?Sent (\\d+) bytes", Pattern.DOTALL);

    private Shaper() {}

    /** Shapes what leaves {@code device} in {@code namespace} to {@code rateMbit}, delayed by {@code latencyMs}. */
    public static void shape(String namespace, String device, int rateMbit, int latencyMs) {
        String rate = rateMbit + "mbit";
        Commands.run(
                "tc", "-n", namespace, "qdisc", "add", "dev", device, "root", "handle", "1:", "htb", "default", "1");
        Commands.run(
                "tc", "-n", namespace, "class", "add", "dev", device, "parent", "1:", "classid", "1:1", "htb", "rate",
                rate, "ceil", rate, "burst", "64k", "cburst", "64k", "quantum", "60000");
        if (latencyMs == 0) {
            Commands.run(
                    "tc", "-n", namespace, "qdisc", "add", "dev", device, "parent", "1:1", "handle", "10:", "bfifo",
                    "limit", "2m");
        } else {
            Commands.run(
                    "tc",
                    "-n",
                    namespace,
                    "qdisc",
                    "add",
                    "dev",
                    device,
                    "parent",
                    "1:1",
                    "handle",
                    "10:",
                    "netem",
                    "delay",
                    latencyMs + "ms",
                    "limit",
                    "10000");
        }
    }

    /**
     * Fails with a clear message unless this kernel can delay packets ({@code netem}); tried on the loopback
     * device of {@code namespace}, which the testbed owns.
     */
    public static void requireLatencySupport(String namespace) {
        Commands.Result result =
                Commands.attempt("tc", "-n", namespace, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms");
        if (result.exit() != 0) {
            throw new TestbedException("--latency needs the netem qdisc, which this kernel does not offer (tc said: "
                    + result.output().strip() + "); run without --latency");
        }
        Commands.run("tc", "-n", namespace, "qdisc", "del", "dev", "lo", "root");
    }

    /** Bytes the shaper of {@code device} in {@code namespace} has sent so far (the link's ground truth). */
    public static long sentBytes(String namespace, String device) {
        String output = Commands.run("tc", "-n", namespace, "-s", "class", "show", "dev", device);
        Matcher matcher = SENT_BYTES.matcher(output);
        if (!matcher.find()) {
            throw new TestbedException("no htb class 1:1 on " + device + " in " + namespace + ": " + output);
        }
        return Long.parseLong(matcher.group(1));
    }
}
