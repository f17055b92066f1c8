package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsClient;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;

/**
 * Issue 14's reaction: a hotspot starts and stops while HDFS writes. Two DataNode hosts each write 12
 * files of 64 MiB (3 replicas, 0-1 s pauses); {@link #HOT_AFTER} after they start, TCP rings fill the access links of
 * a share of the other DataNode hosts (the busy fraction of them) both ways, for {@link #HOT_FOR}. The same under
 * each placement, in an order drawn per run. Each file's time is recorded by when it started (before, during and
 * after the hotspot: the time series is in the raw rows, subject and start), and the share of replicas on the hot
 * hosts of files started during it: CloudTalk's should fall to near zero within seconds, stock's stays at the hot
 * hosts' share of the cluster.
 */
public final class HdfsReaction extends HdfsExperiment {
    static final Duration HOT_AFTER = Duration.ofSeconds(20);
    static final Duration HOT_FOR = Duration.ofSeconds(30);
    static final String ON_HOT = "replicas-on-hot-%-";
    private static final Duration MAX_PAUSE = Duration.ofSeconds(1);
    private static final int WRITERS = 2;
    /** 12 files per writer: about 80 s of writing at 100 Mbit/s, the hotspot in its middle. */
    private static final int FILES = 12;

    public HdfsReaction() {
        super(
                "hdfs-reaction",
                List.of(0.3),
                "hot hosts (% of the non-writing DataNode hosts)",
                "HDFS write time per file before, during and after a hotspot",
                metricsByPeriod());
    }

    private static List<String> metricsByPeriod() {
        List<String> metrics = new ArrayList<>();
        for (HdfsPlacement placement : HdfsPlacement.values()) {
            for (String period : List.of("-before", "-hot", "-after")) {
                metrics.add(HdfsWrite.WRITE_SECONDS + placement.label() + period);
            }
        }
        return metrics;
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        List<Host> dataNodes = new ArrayList<>(HdfsComparison.dataNodes(testbed));
        java.util.Collections.shuffle(dataNodes, context.random());
        Map<Host, Long> writers = HdfsComparison.seeds(dataNodes.subList(0, WRITERS), context);
        List<Host> hot = context.pickBusy(dataNodes.subList(WRITERS, dataNodes.size()));
        return HdfsComparison.run(
                context,
                List.of(HdfsPlacement.values()),
                java.util.Set.of(),
                (hdfs, placement, server, rows, checks) -> {
                    Map<Host, HdfsClient<FileWrite>> running =
                            HdfsComparison.startWriters(hdfs, writers, placement, FILES, MAX_PAUSE);
                    RunContext.pause(HOT_AFTER);
                    long hotFrom = System.currentTimeMillis();
                    long hotTo;
                    try (BackgroundLoad load = new BackgroundLoad(testbed).busy(hot, HOT_FOR.plusSeconds(10))) {
                        RunContext.pause(HOT_FOR);
                    } finally {
                        hotTo = System.currentTimeMillis();
                    }
                    List<FileWrite> writes =
                            HdfsComparison.await(running, HdfsComparison.timeout(testbed, BYTES, FILES, MAX_PAUSE))
                                    .values()
                                    .stream()
                                    .flatMap(List::stream)
                                    .toList();
                    checks.add(HdfsComparison.noneFailed(placement.label() + " write", writes, FileWrite::error));
                    String metric = HdfsWrite.WRITE_SECONDS + placement.label();
                    writes.stream()
                            .filter(FileWrite::ok)
                            .forEach(w -> rows.add(new Measurement(
                                    HdfsComparison.inPeriod(metric, w, hotFrom, hotTo, "hot"),
                                    w.path() + "@" + (w.startMillis() - hotFrom),
                                    w.seconds())));
                    List<FileWrite> duringHot = writes.stream()
                            .filter(w -> w.ok() && w.startMillis() >= hotFrom && w.startMillis() < hotTo)
                            .toList();
                    rows.add(new Measurement(
                            ON_HOT + placement.label(),
                            duringHot.size() + " files started during the hotspot",
                            HdfsComparison.replicasOnPercent(duringHot, hot)));
                    if (placement == HdfsPlacement.CLOUDTALK) {
                        HdfsComparison.writePluginFigures(hdfs, rows, checks);
                    }
                });
    }
}
