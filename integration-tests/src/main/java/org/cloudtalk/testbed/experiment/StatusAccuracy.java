package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;

/**
 * {@code status-accuracy}: with k of N hosts busy, every busy daemon's reported NIC use (tx and rx), averaged over
 * the run, is within 10% of the ground truth its link's shaper counted over the same time, and idle hosts read at
 * most 2% of the link rate at every probe. Once a second for the measuring time, every daemon is asked and every
 * shaper's counter read; the per-second errors are kept as raw data too ({@code busy-error-%}), but a daemon's
 * one-second window cannot line up exactly with the probe's (it ends at the daemon's last sample, up to 250 ms
 * earlier), so single seconds of a fluctuating TCP rate are not the promise.
 */
public final class StatusAccuracy implements Experiment {
    static final double MAX_ERROR = 0.10;
    static final double MAX_IDLE_READING = 0.02;
    static final String BUSY_ERROR = "busy-error-%";
    static final String BUSY_MEAN_ERROR = "busy-mean-error-%";
    static final String IDLE_READING = "idle-reading-%";

    @Override
    public String name() {
        return "status-accuracy";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.25, 0.5, 0.75);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(BUSY_MEAN_ERROR, IDLE_READING);
    }

    @Override
    public String chartTitle() {
        return "Status daemons vs shaped ground truth";
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        List<Host> busy = context.pickBusy(testbed.hosts());
        Duration loadTime = RunContext.SETTLE.plus(context.measure()).plusSeconds(3);
        List<Measurement> rows = new ArrayList<>();
        Map<Link, Double> reportedSum = new java.util.LinkedHashMap<>();
        Map<Link, Double> truthSum = new java.util.LinkedHashMap<>();
        double worstBusy = 0;
        double worstIdle = 0;
        try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, loadTime)) {
            RunContext.pause(RunContext.SETTLE);
            try (FidelityMonitor monitor = FidelityMonitor.start(testbed, load.saturatedLinks())) {
                String core = testbed.coreNamespace();
                Map<Link, Long> before = counters(testbed, core);
                long beforeNanos = System.nanoTime();
                for (long second = 0; second < context.measure().toSeconds(); second++) {
                    RunContext.pause(Duration.ofSeconds(1));
                    Map<Link, Long> now = counters(testbed, core);
                    long nowNanos = System.nanoTime();
                    double seconds = (nowNanos - beforeNanos) / 1e9;
                    for (Host host : testbed.hosts()) {
                        EndpointStatus status = probe(testbed, host);
                        for (Link.Direction direction : Link.Direction.values()) {
                            Link link = new Link(host, direction);
                            double truth = (now.get(link) - before.get(link)) * 8 / seconds;
                            double reported = direction == Link.Direction.UPLOAD
                                    ? status.nicTxUseBitsPerSecond()
                                    : status.nicRxUseBitsPerSecond();
                            if (busy.contains(host)) {
                                double error = Math.abs(reported - truth) / truth;
                                reportedSum.merge(link, reported, Double::sum);
                                truthSum.merge(link, truth, Double::sum);
                                rows.add(new Measurement(BUSY_ERROR, link.toString(), error * 100));
                            } else {
                                double reading = reported / testbed.config().rateBits();
                                worstIdle = Math.max(worstIdle, reading);
                                rows.add(new Measurement(IDLE_READING, link.toString(), reading * 100));
                            }
                        }
                    }
                    before = now;
                    beforeNanos = nowNanos;
                }
                for (Map.Entry<Link, Double> entry : truthSum.entrySet()) {
                    double error = Math.abs(reportedSum.get(entry.getKey()) - entry.getValue()) / entry.getValue();
                    worstBusy = Math.max(worstBusy, error);
                    rows.add(new Measurement(BUSY_MEAN_ERROR, entry.getKey().toString(), error * 100));
                }
                List<Check> checks = List.of(
                        new Check(
                                "busy hosts within 10% of ground truth",
                                worstBusy <= MAX_ERROR,
                                String.format("worst link's error over the run %.1f%%", worstBusy * 100)),
                        new Check(
                                "idle hosts read near zero",
                                worstIdle <= MAX_IDLE_READING,
                                String.format("highest idle reading %.2f%% of the rate", worstIdle * 100)));
                return new RunResult(rows, checks, monitor.verdict());
            }
        }
    }

    private static Map<Link, Long> counters(Testbed testbed, String core) {
        Map<Link, Long> counters = new HashMap<>();
        for (Host host : testbed.hosts()) {
            for (Link.Direction direction : Link.Direction.values()) {
                Link link = new Link(host, direction);
                counters.put(link, link.sentBytes(core));
            }
        }
        return counters;
    }

    private static EndpointStatus probe(Testbed testbed, Host host) {
        try {
            return testbed.daemons().probe(host);
        } catch (IOException | WireException e) {
            throw new TestbedException("the status daemon of " + host.namespace() + " did not answer: " + e, e);
        }
    }
}
