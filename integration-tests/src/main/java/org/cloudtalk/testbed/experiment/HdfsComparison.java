package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsClient;
import org.cloudtalk.testbed.hadoop.HdfsCluster;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.hadoop.HdfsSettings;
import org.cloudtalk.testbed.hadoop.NameNodeJmx;
import org.cloudtalk.testbed.hadoop.WriteJob;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;
import org.cloudtalk.testbed.net.Sysctls;

/**
 * The frame of the HDFS experiments: a NameNode in host 0, a DataNode in every other host, one CloudTalk server, and
 * the same workload against every {@link HdfsPlacement}, each on a freshly formatted cluster, in an order drawn per
 * run; the emulator's verdict covers every placement.
 */
final class HdfsComparison {
    /** The CloudTalk plugins' metrics beans on the NameNode: this followed by the source's name. */
    static final String NAMENODE_BEAN = "Hadoop:service=NameNode,name=";

    private static final Map<String, String> RENO = Map.of("net.ipv4.tcp_congestion_control", "reno");
    static final String WRITER_LOCAL = "writer-local-replica-%-";

    /** What an experiment does on one placement's cluster; it adds its measurements and checks. */
    interface Workload {
        void run(
                HdfsCluster hdfs,
                HdfsPlacement placement,
                RestartableServer server,
                List<Measurement> rows,
                List<Check> checks);
    }

    private HdfsComparison() {}

    /** Runs {@code workload} on every placement; no link is meant to be saturated, so the emulator is judged by CPU. */
    static RunResult run(RunContext context, Workload workload) {
        return run(context, List.of(HdfsPlacement.values()), Set.of(), workload);
    }

    /**
     * Runs {@code workload} on every placement while background load (started by the caller, lasting the whole run)
     * saturates {@code saturated}.
     */
    static RunResult run(RunContext context, List<HdfsPlacement> placements, Set<Link> saturated, Workload workload) {
        Testbed testbed = context.testbed();
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity;
        try (Sysctls.Restore reno = renoEverywhere(testbed)) {
            fidelity = compare(context, placements, saturated, workload, rows, checks);
        }
        return new RunResult(rows, checks, fidelity);
    }

    /**
     * Every host's TCP is Reno for a run, as the background load's is: a Hadoop cluster runs one loss-based TCP (CUBIC,
     * not allowed on this kernel), and a BBR pipeline behind a Reno flow in a deep FIFO gets a few Mbit/s of 100
     * (measured), so the machine's default (BBR) would starve every Hadoop transfer through a busy link.
     */
    static Sysctls.Restore renoEverywhere(Testbed testbed) {
        return Sysctls.onHosts(testbed.hosts(), RENO);
    }

    private static Fidelity compare(
            RunContext context,
            List<HdfsPlacement> placements,
            Set<Link> saturated,
            Workload workload,
            List<Measurement> rows,
            List<Check> checks) {
        Testbed testbed = context.testbed();
        Host nameNode = testbed.host(0);
        List<Host> dataNodes = dataNodes(testbed);
        // The NameNode's plugins ask over host 0's management link; pseudo-reservations at the server's defaults
        // (in full for 500 ms, fading over the daemons' 1 s window) spread concurrent writers (Figure 12); workers
        // at twice the plugin's threads (docs/hadoop-plugins.md).
        try (RestartableServer server = new RestartableServer(ServerProcess.start(
                testbed,
                Host.managementRootAddress(testbed.config().subnet()),
                List.of(),
                Stream.concat(ServerProcess.defaultReservations().stream(), Stream.of("workers=32"))
                        .toList(),
                ServerProcess.oneHopQuery(nameNode, dataNodes)))) {
            return context.inDrawnOrder(placements, HdfsPlacement::label, rows, placement -> {
                HdfsSettings settings = settings(placement, server, context);
                try (HdfsCluster hdfs = HdfsCluster.start(testbed, nameNode, dataNodes, settings);
                        FidelityMonitor monitor = FidelityMonitor.start(testbed, saturated)) {
                    workload.run(hdfs, placement, server, rows, checks);
                    return monitor.verdict();
                }
            });
        }
    }

    /** The cluster's settings for {@code placement}; CloudTalk's plugins ask {@code server}. */
    static HdfsSettings settings(HdfsPlacement placement, RestartableServer server, RunContext context) {
        return placement == HdfsPlacement.CLOUDTALK
                ? HdfsSettings.cloudTalk(server.uri()).withOverrides(cloudTalkSettings(context))
                : HdfsSettings.stock(placement);
    }

    /** This 2-core machine is shared: a NameNode thread waits up to 500 ms for an answer, unless told otherwise. */
    private static Map<String, String> cloudTalkSettings(RunContext context) {
        Map<String, String> settings = new LinkedHashMap<>(Map.of("cloudtalk.deadline.ms", "500"));
        settings.putAll(context.cloudTalkSettings());
        return settings;
    }

    static List<Host> dataNodes(Testbed testbed) {
        return testbed.hosts().subList(1, testbed.hosts().size());
    }

    /** A seed per host, drawn once so that every placement sees the same clients with the same pauses and draws. */
    static Map<Host, Long> seeds(List<Host> hosts, RunContext context) {
        Map<Host, Long> seeds = new LinkedHashMap<>();
        hosts.forEach(h -> seeds.put(h, context.random().nextLong()));
        return seeds;
    }

    /**
     * Each of {@code writers} (host to seed) writes {@code files} files of 64 MiB with 3 replicas under
     * /writes/PLACEMENT-hINDEX, pausing up to {@code maxPause} before each, all at once; returns each writer's files.
     */
    static Map<Host, List<FileWrite>> write(
            HdfsCluster hdfs,
            Map<Host, Long> writers,
            HdfsPlacement placement,
            int files,
            Duration maxPause,
            Testbed testbed) {
        return await(
                startWriters(hdfs, writers, placement, files, maxPause),
                timeout(testbed, HdfsExperiment.BYTES, files, maxPause));
    }

    /** Starts the writers {@link #write} describes and returns at once. */
    static Map<Host, HdfsClient<FileWrite>> startWriters(
            HdfsCluster hdfs, Map<Host, Long> writers, HdfsPlacement placement, int files, Duration maxPause) {
        Map<Host, HdfsClient<FileWrite>> running = new LinkedHashMap<>();
        writers.forEach((writer, seed) -> running.put(
                writer,
                hdfs.startWriter(
                        writer,
                        new WriteJob(
                                placement.label() + "-h" + writer.index(),
                                files,
                                HdfsExperiment.BYTES,
                                HdfsExperiment.REPLICATION,
                                Duration.ZERO,
                                maxPause,
                                seed))));
        return running;
    }

    /** Each started writer's files, waiting up to {@code timeout} for each. */
    static Map<Host, List<FileWrite>> await(Map<Host, HdfsClient<FileWrite>> running, Duration timeout) {
        Map<Host, List<FileWrite>> written = new LinkedHashMap<>();
        running.forEach((writer, client) -> written.put(writer, client.await(timeout)));
        return written;
    }

    /** Generous: every file through a link held to a twentieth of its rate, plus the pauses and start-up. */
    static Duration timeout(Testbed testbed, long bytes, int files, Duration maxPause) {
        return timeout(testbed, bytes, files, maxPause, 20);
    }

    /** Every file through a link held to 1/{@code slowdown} of its rate, plus the pauses and start-up. */
    static Duration timeout(Testbed testbed, long bytes, int files, Duration maxPause, int slowdown) {
        long fileMillis = bytes * 8 * 1000 / testbed.config().rateBits() + 1;
        return maxPause.plusMillis(slowdown * fileMillis).multipliedBy(files).plusSeconds(60);
    }

    /** The share of each writer's successful files with a replica on the writer's own host, in percent. */
    static Measurement writerLocal(Map<Host, List<FileWrite>> written, HdfsPlacement placement) {
        long local = written.entrySet().stream()
                .mapToLong(e -> e.getValue().stream()
                        .filter(w -> w.ok() && w.replicas().contains(e.getKey().address()))
                        .count())
                .sum();
        long ok = written.values().stream()
                .flatMap(List::stream)
                .filter(FileWrite::ok)
                .count();
        return new Measurement(WRITER_LOCAL + placement.label(), ok + " files", ok == 0 ? 0 : 100.0 * local / ok);
    }

    /**
     * {@code metric} with the period a file started in: {@code -before} {@code from}, {@code -NAME} from {@code from}
     * to {@code to} (epoch ms), {@code -after}.
     */
    static String inPeriod(String metric, FileWrite write, long from, long to, String name) {
        return metric + (write.startMillis() < from ? "-before" : write.startMillis() < to ? "-" + name : "-after");
    }

    /** The share of {@code writes}' replicas on {@code hosts}, in percent. */
    static double replicasOnPercent(List<FileWrite> writes, List<Host> hosts) {
        Set<String> addresses = new java.util.HashSet<>();
        hosts.forEach(h -> addresses.add(h.address()));
        List<String> replicas =
                writes.stream().flatMap(w -> w.replicas().stream()).toList();
        return replicas.isEmpty()
                ? 0
                : 100.0 * replicas.stream().filter(addresses::contains).count() / replicas.size();
    }

    /** A check that every one of {@code outcomes} succeeded, naming the first failure's error. */
    static <T> Check noneFailed(String what, List<T> outcomes, java.util.function.Function<T, String> error) {
        List<String> failed =
                outcomes.stream().map(error).filter(e -> !e.isEmpty()).toList();
        return new Check(
                "no " + what + " fails",
                failed.isEmpty(),
                failed.isEmpty() ? outcomes.size() + " done" : failed.size() + " failed, e.g. " + failed.get(0));
    }

    /** {@link #pluginFigures} of the NameNode's write placement plugin. */
    static void writePluginFigures(HdfsCluster hdfs, List<Measurement> rows, List<Check> checks) {
        pluginFigures(hdfs.jmx(), NAMENODE_BEAN + "CloudTalkHdfsWrite", "cloudtalk-", rows, checks);
    }

    /**
     * A plugin's own counters from a daemon's /jmx ({@code bean}, e.g. the NameNode's
     * {@code Hadoop:service=NameNode,name=CloudTalkHdfsWrite}): the share of decisions an answer made
     * ({@code prefix}answers-used-%) and the fallbacks to the default choice ({@code prefix}fallbacks); the latency
     * figures there are per metrics interval, not per run. Returns the bean's numbers (none if it cannot be read).
     */
    static Map<String, Long> pluginFigures(
            NameNodeJmx jmx, String bean, String prefix, List<Measurement> rows, List<Check> checks) {
        Map<String, Long> numbers;
        try {
            numbers = jmx.numbers(bean);
        } catch (IOException e) {
            checks.add(new Check("the plugin's metrics are read from /jmx", false, e.getMessage()));
            return Map.of();
        }
        long fallbacks = numbers.entrySet().stream()
                .filter(e -> e.getKey().startsWith("Fallbacks"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long answered = numbers.getOrDefault("AnswersUsed", 0L);
        long decisions = answered + fallbacks;
        rows.add(new Measurement(
                prefix + "answers-used-%",
                decisions + " decisions",
                decisions == 0 ? 0 : 100.0 * answered / decisions));
        rows.add(new Measurement(prefix + "fallbacks", "count", fallbacks));
        return numbers;
    }
}
