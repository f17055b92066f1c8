package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.fidelity.EmulatorCpu;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;

/**
 * {@code capacity}: what this machine can emulate. A busy fraction f of the hosts (at most half) each send one TCP
 * flow to a distinct other host; every link the flows cross must carry at least 90% of its rate while the machine
 * keeps a quarter of its CPU idle. Run with {@code --busy 0.5} at growing {@code --hosts} and {@code --rate} to find
 * the largest testbed that stays faithful (docs/benchmarks.md, "Testbed capacity").
 */
public final class Capacity implements Experiment {
    static final String LINK_SHARE = "link-share-%";
    static final String IDLE = "cpu-idle-%";
    static final String EMULATOR_CORES = "emulator-cores";

    @Override
    public String name() {
        return "capacity";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.5);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(LINK_SHARE, IDLE);
    }

    @Override
    public String chartTitle() {
        return "Share of the link rate carried, half the hosts sending";
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        List<Host> hosts = testbed.hosts();
        int senders = Math.max(1, (int) Math.round(context.busyFraction() * hosts.size()));
        if (2 * senders > hosts.size()) {
            senders = hosts.size() / 2;
        }
        List<Host> from = hosts.subList(0, senders);
        List<Host> to = hosts.subList(senders, 2 * senders);
        Duration loadTime = RunContext.SETTLE.plus(context.measure()).plusSeconds(3);
        try (BackgroundLoad load = new BackgroundLoad(testbed).flows(from, to, loadTime)) {
            RunContext.pause(RunContext.SETTLE);
            try (FidelityMonitor monitor = FidelityMonitor.start(testbed, load.saturatedLinks())) {
                EmulatorCpu cpu = EmulatorCpu.start(testbed.startedProcesses());
                RunContext.pause(context.measure());
                double cores = cpu.cores();
                Fidelity fidelity = monitor.verdict();
                List<Measurement> rows = new ArrayList<>();
                for (Map.Entry<Link, Double> entry : monitor.linkRates().entrySet()) {
                    rows.add(new Measurement(
                            LINK_SHARE,
                            entry.getKey().toString(),
                            entry.getValue() / testbed.config().rateBits() * 100));
                }
                rows.add(new Measurement(IDLE, "machine", fidelity.meanIdle() * 100));
                rows.add(new Measurement(EMULATOR_CORES, "testbed", cores));
                Check check = new Check(
                        "every link carries >= 90% of its rate",
                        fidelity.worstLinkShare() >= Fidelity.MIN_LINK_SHARE,
                        String.format(
                                "worst %.1f%% of %d Mbit/s",
                                fidelity.worstLinkShare() * 100,
                                testbed.config().rateMbit()));
                return new RunResult(rows, List.of(check), fidelity);
            }
        }
    }
}
