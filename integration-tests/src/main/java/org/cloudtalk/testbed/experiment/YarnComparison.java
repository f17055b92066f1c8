package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.hadoop.HdfsCluster;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.hadoop.HdfsSettings;
import org.cloudtalk.testbed.hadoop.MapReduceJobs;
import org.cloudtalk.testbed.hadoop.YarnCluster;
import org.cloudtalk.testbed.hadoop.YarnPlacement;
import org.cloudtalk.testbed.hadoop.YarnSettings;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Sysctls;

/**
 * The frame of the YARN experiments (§5.3, Figures 7-8): a NameNode, the ResourceManager and the job client in host 0,
 * a DataNode and a NodeManager in every other host; sort input written once per run (by a stock YARN, before any
 * load), then unresponsive UDP from outside the cluster blasting the chosen hosts' receive links, and one sort job
 * per {@link YarnPlacement}, each on a freshly started YARN, in an order drawn per run; the emulator's verdict covers
 * every job.
 */
final class YarnComparison {
    static final String JOB_SECONDS = "job-s-";
    static final String SHUFFLE_SECONDS = "shuffle-s-";
    /** What the blasted hosts are called in the share-on-marked metrics ({@link #sort}). */
    static final String BLASTED = "blasted";
    /**
     * Per sort, the share of map outputs a reduce found on its own host, averaged over the successful reduces: a
     * placement that piles reduces where the maps ran shuffles less over the network.
     */
    static final String MAP_OUTPUTS_LOCAL = "map-outputs-local-%-";
    /** A row naming the blasted hosts (subject: their addresses), to read the raw rows' reduce hosts against. */
    static final String BLASTED_HOSTS = "blasted-hosts";
    /**
     * The blasts take 80% of a receive link, leaving TCP into a blasted host the rest and what it wins of the queue:
     * slow, not starved (a blast at the full rate would leave a misplaced reduce almost nothing, and the job to its
     * fetch timeouts).
     */
    static final double BLAST_SHARE = 0.8;

    private static final String INPUT = "/sort-in";
    /**
     * 24 MiB of records from each of one map per worker: the sort's input, 3 replicas. Small enough that the sort's
     * maps (CPU) do not take the 2-core machine's every cycle, large enough that each reduce receives tens of MiB. Not
     * in more files: with two maps per worker (12 MiB each) the sorts left the machine 15-20% idle (docs/architecture.md).
     */
    private static final long BYTES_PER_MAP = 24L << 20;

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);
    /**
     * The sort's settings, the same for every placement: reduces start once every map is done (the shuffle is then
     * transfer alone, not waiting for maps), and its output has one replica, as TeraSort's has by default (the
     * experiment is about where reduces receive, not where HDFS writes).
     */
    private static final Map<String, String> SORT =
            Map.of("mapreduce.job.reduce.slowstart.completedmaps", "1.0", "dfs.replication", "1");

    private static final String RESOURCE_MANAGER_BEAN = "Hadoop:service=ResourceManager,name=CloudTalkYarnPlacement";

    /** What an experiment does on one placement's YARN; it adds its measurements and checks. */
    interface Workload {
        void run(
                YarnCluster yarn,
                YarnPlacement placement,
                RestartableServer server,
                List<Measurement> rows,
                List<Check> checks);
    }

    private YarnComparison() {}

    /** The NodeManager hosts: every host but the master (host 0). */
    static List<Host> workers(Testbed testbed) {
        return HdfsComparison.dataNodes(testbed);
    }

    /** The CloudTalk server of a Hadoop run: asked over host 0's management link. */
    static RestartableServer startServer(Testbed testbed) {
        return new RestartableServer(ServerProcess.start(
                testbed,
                Host.managementRootAddress(testbed.config().subnet()),
                List.of(),
                List.of("workers=32"),
                ServerProcess.oneHopQuery(testbed.host(0), workers(testbed))));
    }

    /** Runs {@code workload} on every placement while {@code blasted} receive UDP from outside. */
    static RunResult run(RunContext context, List<YarnPlacement> placements, List<Host> blasted, Workload workload) {
        Testbed testbed = context.testbed();
        Host master = testbed.host(0);
        List<Host> workers = workers(testbed);
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity;
        rows.add(new Measurement(
                BLASTED_HOSTS, blasted.stream().map(Host::address).collect(Collectors.joining(" ")), blasted.size()));
        try (Sysctls.Restore reno = HdfsComparison.renoEverywhere(testbed);
                RestartableServer server = startServer(testbed);
                HdfsCluster hdfs =
                        HdfsCluster.start(testbed, master, workers, HdfsSettings.stock(HdfsPlacement.STOCK_DEFAULTS))) {
            writeInput(testbed, hdfs, master, workers);
            try (BackgroundLoad blasts =
                    new BackgroundLoad(testbed).udpBlastsFromOutside(blasted, BLAST_SHARE, Duration.ofHours(3))) {
                RunContext.pause(RunContext.SETTLE);
                fidelity = context.inDrawnOrder(placements, YarnPlacement::label, rows, placement -> {
                    try (YarnCluster yarn = YarnCluster.start(
                                    testbed, hdfs, master, workers, settings(placement, server, context));
                            FidelityMonitor monitor = FidelityMonitor.start(testbed, blasts.saturatedLinks())) {
                        workload.run(yarn, placement, server, rows, checks);
                        return monitor.verdict();
                    }
                });
            }
        }
        return new RunResult(rows, checks, fidelity);
    }

    /** The YARN settings for {@code placement}; CloudTalk's node order asks {@code server}. */
    static YarnSettings settings(YarnPlacement placement, RestartableServer server, RunContext context) {
        return placement == YarnPlacement.CLOUDTALK
                ? YarnSettings.cloudTalk(server.uri()).withOverrides(cloudTalkSettings(context))
                : YarnSettings.stock(placement);
    }

    /** The ResourceManager's scheduler thread waits up to 1 s for an answer, unless told otherwise. */
    private static Map<String, String> cloudTalkSettings(RunContext context) {
        Map<String, String> settings = new LinkedHashMap<>(Map.of("cloudtalk.deadline.ms", "1000"));
        settings.putAll(context.cloudTalkSettings());
        return settings;
    }

    /** Writes the sort's input with a stock YARN (started and stopped here). */
    static void writeInput(Testbed testbed, HdfsCluster hdfs, Host master, List<Host> workers) {
        try (YarnCluster yarn =
                YarnCluster.start(testbed, hdfs, master, workers, YarnSettings.stock(YarnPlacement.STOCK_DEFAULTS))) {
            MapReduceJobs.Outcome generate = yarn.run(
                    master, JOB_TIMEOUT, Map.of(), MapReduceJobs.generate(INPUT, workers.size(), BYTES_PER_MAP));
            if (!generate.succeeded()) {
                throw new TestbedException("the sort's input was not written: " + generate.diagnostics());
            }
        }
    }

    /**
     * Sorts the run's input with as many reduces as half the workers ({@code jobSettings} added to the sort's own),
     * and records the job's time, each successful reduce's shuffle time, the shares of successful reduce and map
     * attempts and of application master attempts on {@code marked} hosts ({@code reduces-on-MARK-%-},
     * {@code maps-on-MARK-%-} and {@code am-on-MARK-%-} + {@code label}, MARK being {@code markedName}) and
     * {@link #MAP_OUTPUTS_LOCAL}; returns the job's outcome.
     */
    static MapReduceJobs.Outcome sort(
            YarnCluster yarn,
            String label,
            Map<String, String> jobSettings,
            List<Host> marked,
            String markedName,
            List<Measurement> rows,
            List<Check> checks) {
        int reduces = Math.max(1, yarn.nodeHosts().size() / 2);
        Map<String, String> settings = new LinkedHashMap<>(SORT);
        settings.putAll(jobSettings);
        MapReduceJobs.Outcome sort = yarn.run(
                yarn.resourceManagerHost(),
                JOB_TIMEOUT,
                settings,
                MapReduceJobs.sort(INPUT, "/sort-out-" + label, reduces));
        checks.add(new Check(
                "the " + label + " sort succeeds",
                sort.succeeded(),
                sort.succeeded() ? sort.reduces().size() + " reduces" : sort.diagnostics()));
        if (!sort.succeeded()) {
            return sort;
        }
        rows.add(new Measurement(JOB_SECONDS + label, reduces + " reduces", sort.seconds()));
        Set<String> markedAddresses = marked.stream().map(Host::address).collect(Collectors.toSet());
        for (MapReduceJobs.Reduce reduce : sort.reduces()) {
            rows.add(new Measurement(SHUFFLE_SECONDS + label, reduce.host(), reduce.shuffleSeconds()));
        }
        List<String> reduceHosts =
                sort.reduces().stream().map(MapReduceJobs.Reduce::host).toList();
        rows.add(shareOn(markedAddresses, reduceHosts, "reduces-on-" + markedName + "-%-" + label, "reduce"));
        rows.add(shareOn(markedAddresses, sort.mapHosts(), "maps-on-" + markedName + "-%-" + label, "map"));
        rows.add(shareOn(
                markedAddresses,
                sort.applicationMasterHosts(),
                "am-on-" + markedName + "-%-" + label,
                "application master"));
        int maps = Math.max(1, sort.mapHosts().size());
        rows.add(new Measurement(
                MAP_OUTPUTS_LOCAL + label,
                sort.mapHosts().size() + " map attempts",
                reduceHosts.stream()
                        .mapToDouble(host -> 100.0 * Collections.frequency(sort.mapHosts(), host) / maps)
                        .average()
                        .orElse(0)));
        if (label.equals(YarnPlacement.CLOUDTALK.label())) {
            Map<String, Long> numbers =
                    HdfsComparison.pluginFigures(yarn.jmx(), RESOURCE_MANAGER_BEAN, "cloudtalk-", rows, checks);
            // Refreshes an earlier answer ordered after a failed query (cloudtalk.yarn.stale.ms).
            rows.add(new Measurement(
                    "cloudtalk-stale-answers-used", "count", numbers.getOrDefault("StaleAnswersUsed", 0L)));
        }
        return sort;
    }

    /** The share (%) of {@code attempts}' hosts among {@code marked}, as {@code metric}. */
    private static Measurement shareOn(Set<String> marked, List<String> attempts, String metric, String kind) {
        long on = attempts.stream().filter(marked::contains).count();
        return new Measurement(
                metric,
                attempts.size() + " " + kind + " attempts",
                attempts.isEmpty() ? 0 : 100.0 * on / attempts.size());
    }
}
