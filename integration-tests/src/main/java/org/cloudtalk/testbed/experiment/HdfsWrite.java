package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.net.Host;

/**
 * Figure 6 of the paper (HDFS write): a NameNode in host 0 and a DataNode in every other host; a share of the DataNode
 * hosts (the busy fraction: here the <em>active</em> hosts, as in the paper) each write 3 files of
 * 64 MiB with 3 replicas, pausing 0-3 s before each, all at once. The contention is
 * HDFS's own pipelines. The same writes run against stock HDFS at its defaults, stock at its best and CloudTalk's
 * placement policy, each on a freshly formatted cluster; per-file write time (create to the end of close) is the
 * metric, its avg and p99 per placement in the summary.
 */
public final class HdfsWrite extends HdfsExperiment {
    static final String WRITE_SECONDS = "write-s-";
    static final Duration MAX_PAUSE = Duration.ofSeconds(3);

    private static final int FILES = 3;

    /** The paper's set-up: 3 files per active host. */
    public HdfsWrite() {
        super(
                "hdfs-write",
                List.of(0.1, 0.3, 0.5, 0.7, 0.9),
                "active writers (%)",
                "HDFS write time per file vs share of active writers",
                perPlacement(WRITE_SECONDS));
    }

    @Override
    public RunResult run(RunContext context) {
        Map<Host, Long> writers =
                HdfsComparison.seeds(context.pickBusy(HdfsComparison.dataNodes(context.testbed())), context);
        return HdfsComparison.run(context, (hdfs, placement, server, rows, checks) -> {
            Map<Host, List<FileWrite>> written =
                    HdfsComparison.write(hdfs, writers, placement, FILES, MAX_PAUSE, context.testbed());
            record(written.values().stream().flatMap(List::stream).toList(), placement, rows, checks);
            rows.add(HdfsComparison.writerLocal(written, placement));
            if (placement == HdfsPlacement.CLOUDTALK) {
                HdfsComparison.writePluginFigures(hdfs, rows, checks);
            }
        });
    }

    /** Each successful write's time as {@code write-s-PLACEMENT}, and a check that none failed. */
    static void record(List<FileWrite> writes, HdfsPlacement placement, List<Measurement> rows, List<Check> checks) {
        writes.stream()
                .filter(FileWrite::ok)
                .forEach(w -> rows.add(new Measurement(WRITE_SECONDS + placement.label(), w.path(), w.seconds())));
        checks.add(HdfsComparison.noneFailed(placement.label() + " write", writes, FileWrite::error));
    }
}
