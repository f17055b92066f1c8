package org.cloudtalk.testbed.net;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.testbed.TestbedException;

/**
 * The access-link shaper, one per direction: an {@code htb} class at the link rate with a 2 MiB byte FIFO under it
 * (or a {@code netem} delay line when latency is asked for). Below ~1 MiB of queue TCP small queues starve the
 * flow, and {@code bfifo limit 64k} drops GSO packets locally (ARCHITECTURE.md, platform facts).
 */
public final class Shaper {
    /** The FIFO under each shaper when the testbed is up: 2 MiB. */
    public static final int QUEUE_BYTES = 2 << 20;

    /** What each shaper may send at once, beyond its rate, after an idle spell: 64 KiB. */
    public static final int BURST_BYTES = 64 << 10;

    private static final Pattern FIFO_DROPS = Pattern.compile("qdisc bfifo 10: .*?dropped (\\d+)", Pattern.DOTALL);
    private static final Pattern SENT_BYTES = Pattern.compile("class htb 1:1 .*?Sent (\\d+) bytes", Pattern.DOTALL);

    private Shaper() {}

    /** Shapes what leaves {@code device} in {@code namespace} to {@code rateMbit}, delayed by {@code latencyMs}. */
    public static void shape(String namespace, String device, int rateMbit, int latencyMs) {
        Commands.run(
                "tc", "-n", namespace, "qdisc", "add", "dev", device, "root", "handle", "1:", "htb", "default", "1");
        shaperClass(namespace, device, "add", rateMbit, BURST_BYTES);
        if (latencyMs == 0) {
            underShaper(namespace, device, "add", "bfifo", "limit", Integer.toString(QUEUE_BYTES));
        } else {
            underShaper(namespace, device, "add", "netem", "delay", latencyMs + "ms", "limit", "10000");
        }
    }

    /**
     * Makes the shaper of {@code device} in {@code namespace} a switch port: a FIFO of {@code queueBytes} instead of
     * 2 MiB, and a burst of {@code burstBytes} instead of 64 KiB (a port sends nothing faster than its rate; the
     * shaper's burst would let an incast's first 64 KiB through at once). {@link #QUEUE_BYTES} and
     * {@link #BURST_BYTES} put the usual shaper back. Only for a testbed without latency, whose shapers have a FIFO
     * and no delay line.
     */
    public static void reshape(String namespace, String device, int rateMbit, int queueBytes, int burstBytes) {
        shaperClass(namespace, device, "change", rateMbit, burstBytes);
        underShaper(namespace, device, "replace", "bfifo", "limit", Integer.toString(queueBytes));
    }

    /** Adds or replaces the qdisc under the shaper's class: {@code qdisc} is its kind and parameters. */
    private static void underShaper(String namespace, String device, String verb, String... qdisc) {
        List<String> command = new ArrayList<>(
                List.of("tc", "-n", namespace, "qdisc", verb, "dev", device, "parent", "1:1", "handle", "10:"));
        command.addAll(List.of(qdisc));
        Commands.run(command.toArray(String[]::new));
    }

    private static void shaperClass(String namespace, String device, String verb, int rateMbit, int burstBytes) {
        String rate = rateMbit + "mbit";
        String burst = Integer.toString(burstBytes);
        Commands.run(
                "tc", "-n", namespace, "class", verb, "dev", device, "parent", "1:", "classid", "1:1", "htb", "rate",
                rate, "ceil", rate, "burst", burst, "cburst", burst, "quantum", "60000");
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

    /** Packets the FIFO under the shaper of {@code device} in {@code namespace} has dropped since it was made. */
    public static long droppedPackets(String namespace, String device) {
        String output = Commands.run("tc", "-n", namespace, "-s", "qdisc", "show", "dev", device);
        Matcher matcher = FIFO_DROPS.matcher(output);
        if (!matcher.find()) {
            throw new TestbedException(
                    "no bfifo 10: under the shaper of " + device + " in " + namespace + ": " + output);
        }
        return Long.parseLong(matcher.group(1));
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
