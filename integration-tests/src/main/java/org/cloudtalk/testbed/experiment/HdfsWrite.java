package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsCluster;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.hadoop.HdfsSettings;
import org.cloudtalk.testbed.hadoop.HdfsWriter;
import org.cloudtalk.testbed.hadoop.WriteJob;
import org.cloudtalk.testbed.net.Host;

/**
 * Figure 6 of the paper (HDFS write): a NameNode in host 0 and a DataNode in every other host; a share of the DataNode
 * hosts (the busy fraction: here the <em>active</em> hosts, as in the paper) each write {@code files} files of
 * {@code bytes} bytes with {@code replication} replicas, pausing 0-3 s before each, all at once. The contention is
 * HDFS's own pipelines. The same writes run against stock HDFS at its defaults, stock at its best and CloudTalk's
 * placement policy, each on a freshly formatted cluster; per-file write time (create to the end of close) is the
 * metric, its avg and p99 per placement in the summary.
 */
public final class HdfsWrite implements Experiment {
    static final String WRITE_SECONDS = "write-s-";
    static final String ANSWERS_USED = "cloudtalk-answers-used-%";
    static final String FALLBACKS = "cloudtalk-fallbacks";
    private static final Duration MAX_PAUSE = Duration.ofSeconds(3);

    private final int files;
    private final long bytes;
    private final int replication;

    /** The paper's set-up: 3 files per active host, 3 replicas; 64 MiB files (one block each). */
    public HdfsWrite() {
        this(3, 64L << 20, 3);
    }

    public HdfsWrite(int files, long bytes, int replication) {
        this.files = files;
        this.bytes = bytes;
        this.replication = replication;
    }

    @Override
    public String name() {
        return "hdfs-write";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.1, 0.3, 0.5, 0.7, 0.9);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(HdfsPlacement.values()).stream()
                .map(p -> WRITE_SECONDS + p.label())
                .toList();
    }

    @Override
    public String xAxisTitle() {
        return "active writers (%)";
    }

    @Override
    public String yAxisTitle() {
        return "seconds per file (avg; p99 dashed)";
    }

    @Override
    public boolean chartP99() {
        return true;
    }

    @Override
    public String chartTitle() {
        return "HDFS write time per file vs share of active writers";
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        Host nameNode = testbed.host(0);
        List<Host> dataNodes = testbed.hosts().subList(1, testbed.hosts().size());
        List<Host> writers = context.pickBusy(dataNodes);
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity = null;
        // The NameNode's plugin asks over host 0's management link; pseudo-reservations at the server's default
        // (300 ms) spread concurrent writers (Figure 12); workers at twice the plugin's threads
        // (docs/hadoop-plugins.md).
        try (ServerProcess server = ServerProcess.start(
                testbed,
                Host.managementRootAddress(testbed.config().subnet()),
                List.of(),
                List.of("reservation.hold.ms=300", "workers=32"),
                ServerProcess.oneHopQuery(nameNode, dataNodes))) {
            for (HdfsPlacement placement : HdfsPlacement.values()) {
                HdfsSettings settings = placement == HdfsPlacement.CLOUDTALK
                        // This 2-core machine is shared: a NameNode thread waits up to 500 ms for an answer.
                        ? HdfsSettings.cloudTalk(server.uri()).withOverrides(Map.of("cloudtalk.deadline.ms", "500"))
                        : HdfsSettings.stock(placement);
                try (HdfsCluster hdfs = HdfsCluster.start(testbed, nameNode, dataNodes, settings);
                        FidelityMonitor monitor = FidelityMonitor.start(testbed, Set.of())) {
                    List<FileWrite> writes = write(hdfs, writers, placement, context, testbed);
                    writes.stream()
                            .filter(FileWrite::ok)
                            .forEach(w -> rows.add(
                                    new Measurement(WRITE_SECONDS + placement.label(), w.path(), w.seconds())));
                    List<FileWrite> failed =
                            writes.stream().filter(w -> !w.ok()).toList();
                    checks.add(new Check(
                            "no " + placement.label() + " write fails",
                            failed.isEmpty(),
                            failed.isEmpty()
                                    ? writes.size() + " files written"
                                    : failed.size() + " failed, e.g. "
                                            + failed.get(0).error()));
                    if (placement == HdfsPlacement.CLOUDTALK) {
                        pluginFigures(hdfs, rows, checks);
                    }
                    Fidelity phase = monitor.verdict();
                    fidelity = fidelity == null ? phase : Fidelity.both(fidelity, phase, placement.label());
                }
            }
        }
        return new RunResult(rows, checks, fidelity);
    }

    private List<FileWrite> write(
            HdfsCluster hdfs, List<Host> writers, HdfsPlacement placement, RunContext context, Testbed testbed) {
        List<HdfsWriter> running = new ArrayList<>();
        for (Host writer : writers) {
            WriteJob job = new WriteJob(
                    placement.label() + "-h" + writer.index(),
                    files,
                    bytes,
                    replication,
                    Duration.ZERO,
                    MAX_PAUSE,
                    context.random().nextLong());
            running.add(hdfs.startWriter(writer, job));
        }
        // Generous: every file through a link held to a twentieth of its rate, plus the pauses and start-up.
        long fileMillis = bytes * 8 * 1000 / testbed.config().rateBits() + 1;
        Duration timeout =
                MAX_PAUSE.plusMillis(20 * fileMillis).multipliedBy(files).plusSeconds(60);
        List<FileWrite> writes = new ArrayList<>();
        for (HdfsWriter writer : running) {
            writes.addAll(writer.await(timeout));
        }
        return writes;
    }

    /**
     * The plugin's own counters from the NameNode's /jmx: the share of blocks an answer placed (one answer may place
     * several blocks), and its fallbacks to the default choice (the latency figures there are per metrics interval,
     * not per run).
     */
    private static void pluginFigures(HdfsCluster hdfs, List<Measurement> rows, List<Check> checks) {
        Map<String, Long> numbers;
        try {
            numbers = hdfs.jmx().numbers("Hadoop:service=NameNode,name=CloudTalkHdfsWrite");
        } catch (IOException e) {
            checks.add(new Check("the plugin's metrics are read from /jmx", false, e.getMessage()));
            return;
        }
        long fallbacks = numbers.entrySet().stream()
                .filter(e -> e.getKey().startsWith("Fallbacks"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long answered = numbers.getOrDefault("AnswersUsed", 0L);
        long blocks = answered + fallbacks;
        rows.add(new Measurement(ANSWERS_USED, blocks + " blocks", blocks == 0 ? 0 : 100.0 * answered / blocks));
        rows.add(new Measurement(FALLBACKS, "count", fallbacks));
    }
}
