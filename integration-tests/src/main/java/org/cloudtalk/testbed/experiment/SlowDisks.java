package org.cloudtalk.testbed.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.Undo;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.hadoop.HdfsCluster;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.hadoop.HdfsSettings;
import org.cloudtalk.testbed.hadoop.YarnCluster;
import org.cloudtalk.testbed.hadoop.YarnPlacement;
import org.cloudtalk.testbed.hadoop.YarnSettings;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Sysctls;

/**
 * Issue 15's {@code slow-disks} (§5.3, Figure 9): every host has a throttled disk of its own ({@code --disk-rate})
 * holding its DataNode's blocks and its NodeManager's task data; the busy fraction of the workers get disks
 * {@link #SLOWDOWN}x slower (their daemons told the new capacity, as an operator configures a host's disk). A sort job
 * over input written with every disk at full speed and CloudTalk's placement off, then read from the disks (page
 * cache dropped), with every plugin of a stack: stock at its defaults (HDFS and CapacityScheduler defaults), stock at
 * its best (HDFS {@code read.considerLoad}, peer statistics and slow-node exclusion; the multi-node lookup policy), and
 * CloudTalk (HDFS write placement and read ordering, the node order for containers, the input format that drops slow
 * split locations). Each stack on a freshly formatted HDFS and a fresh YARN, in an order drawn per run.
 */
public final class SlowDisks implements Experiment {
    static final int SLOWDOWN = 8;
    static final String SLOW = "slow";
    static final String SLOW_HOSTS = "slow-hosts";

    /** What runs a job: HDFS's placement, YARN's, and whether the job asks CloudTalk where its maps read. */
    private enum Stack {
        STOCK_DEFAULTS(HdfsPlacement.STOCK_DEFAULTS, YarnPlacement.STOCK_DEFAULTS),
        STOCK_BEST(HdfsPlacement.STOCK_BEST, YarnPlacement.STOCK_MULTI_NODE),
        CLOUDTALK(HdfsPlacement.CLOUDTALK, YarnPlacement.CLOUDTALK);

        private final HdfsPlacement hdfs;
        private final YarnPlacement yarn;

        Stack(HdfsPlacement hdfs, YarnPlacement yarn) {
            this.hdfs = hdfs;
            this.yarn = yarn;
        }

        String label() {
            return hdfs.label();
        }
    }

    @Override
    public String name() {
        return "slow-disks";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.25);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(Stack.values()).stream()
                .map(s -> YarnComparison.JOB_SECONDS + s.label())
                .toList();
    }

    @Override
    public String chartTitle() {
        return "Sort job time with some disks " + SLOWDOWN + "x slower";
    }

    @Override
    public String xAxisTitle() {
        return "hosts with a slow disk (%)";
    }

    @Override
    public String yAxisTitle() {
        return "seconds per job";
    }

    @Override
    public void check(TestbedConfig config) {
        Disks.requirePerHost(config, name());
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        int diskRate = testbed.config().diskMiBps();
        Disks.requirePerHost(testbed.state(), name());
        List<Host> workers = YarnComparison.workers(testbed);
        List<Host> slow = context.pickBusy(workers);
        int slowRate = Math.max(1, diskRate / SLOWDOWN);
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity;
        rows.add(new Measurement(
                SLOW_HOSTS,
                slow.stream().map(Host::address).collect(java.util.stream.Collectors.joining(" ")),
                slow.size()));
        try (Sysctls.Restore reno = HdfsComparison.renoEverywhere(testbed);
                RestartableServer server = YarnComparison.startServer(testbed)) {
            fidelity = context.inDrawnOrder(
                    List.of(Stack.values()),
                    Stack::label,
                    rows,
                    stack -> runStack(context, stack, server, slow, slowRate, rows, checks));
        }
        return new RunResult(rows, checks, fidelity);
    }

    private static Fidelity runStack(
            RunContext context,
            Stack stack,
            RestartableServer server,
            List<Host> slow,
            int slowRate,
            List<Measurement> rows,
            List<Check> checks) {
        Testbed testbed = context.testbed();
        Host master = testbed.host(0);
        List<Host> workers = YarnComparison.workers(testbed);
        boolean cloudTalk = stack == Stack.CLOUDTALK;
        HdfsSettings hdfsSettings = HdfsComparison.settings(stack.hdfs, server, context);
        try (HdfsCluster hdfs = HdfsCluster.start(testbed, master, workers, hdfsSettings)) {
            // Every stack reads input laid out by HDFS's default placement: with the server stopped, CloudTalk's
            // write plugin falls back to it for every block.
            if (cloudTalk) {
                server.stop();
            }
            try {
                YarnComparison.writeInput(testbed, hdfs, master, workers);
            } finally {
                if (cloudTalk) {
                    server.restart();
                }
            }
            // Before the disks are slowed: the input's last dirty pages reach them at full speed.
            Disks.dropPageCache();
            try (SlowedDisks slowed = new SlowedDisks(testbed, slow, slowRate)) {
                RunContext.pause(RunContext.SETTLE);
                YarnSettings yarnSettings = YarnComparison.settings(stack.yarn, server, context);
                try (YarnCluster yarn = YarnCluster.start(testbed, hdfs, master, workers, yarnSettings);
                        FidelityMonitor monitor = FidelityMonitor.start(testbed, java.util.Set.of())) {
                    YarnComparison.sort(
                            yarn,
                            stack.label(),
                            cloudTalk ? mapPlacement(server, context) : Map.of(),
                            slow,
                            SLOW,
                            rows,
                            checks);
                    return monitor.verdict();
                }
            }
        }
    }

    /** The job settings that have its maps read from hosts CloudTalk does not judge slow. */
    private static Map<String, String> mapPlacement(RestartableServer server, RunContext context) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("mapreduce.job.inputformat.class", "org.cloudtalk.hadoop.mapreduce.CloudTalkInputFormat");
        settings.put(
                "cloudtalk.mapreduce.inputformat.class",
                "org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat");
        settings.put("cloudtalk.server.uri", server.uri().toString());
        settings.put("cloudtalk.deadline.ms", "1000");
        settings.putAll(context.cloudTalkSettings());
        return settings;
    }

    /**
     * Some hosts' disks throttled to a slower rate, their daemons told so; {@link #close} puts back every one it
     * changed, also after a failure part-way.
     */
    private static final class SlowedDisks implements AutoCloseable {
        private final Testbed testbed;
        private final List<Host> slowed = new ArrayList<>();

        SlowedDisks(Testbed testbed, List<Host> hosts, int mibPerSecond) {
            this.testbed = testbed;
            Undo.onFailure(
                    () -> {
                        for (Host host : hosts) {
                            slowed.add(host);
                            set(host, mibPerSecond);
                        }
                    },
                    this::close);
        }

        private void set(Host host, int mibPerSecond) {
            Disks.throttle(Disks.of(testbed.state(), host), mibPerSecond);
            testbed.daemons().restartWithDiskCapacity(testbed.state(), testbed.processes(), host, mibPerSecond);
        }

        @Override
        public void close() {
            try {
                Undo.each(slowed, host -> set(host, testbed.config().diskMiBps()));
            } finally {
                slowed.clear();
            }
        }
    }
}
