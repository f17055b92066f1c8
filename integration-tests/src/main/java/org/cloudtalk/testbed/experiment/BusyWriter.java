package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;

/**
 * The writer's own host is busy (issue 14): a share of the DataNode hosts (the busy fraction) carry TCP rings that
 * fill their access links both ways, and two of them write 3 files of 64 MiB each (3
 * replicas, pausing 0-3 s before each). Stock HDFS puts the first replica on the writer's own
 * DataNode whatever its links carry (considerLoad counts transfers, and exempts the writer's node: HDFS-16275);
 * CloudTalk judges the local node like any other. Per-file write time, the share of files with a replica on the
 * writer's own host, and the share of replicas on busy hosts, per placement.
 */
public final class BusyWriter extends HdfsExperiment {
    static final String ON_BUSY = "replicas-on-busy-%-";
    private static final int WRITERS = 2;

    private static final int FILES = 3;

    /** 3 files per writer, as in {@code hdfs-write}. */
    public BusyWriter() {
        super(
                "busy-writer",
                List.of(0.3, 0.5, 0.7),
                "busy hosts (%)",
                "HDFS write time per file when the writers' own hosts are busy",
                perPlacement(HdfsWrite.WRITE_SECONDS));
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        List<Host> busy = context.pickBusy(HdfsComparison.dataNodes(testbed));
        Map<Host, Long> writers = HdfsComparison.seeds(busy.subList(0, WRITERS), context);
        // Longer than any run: close() stops it.
        try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, Duration.ofHours(1))) {
            RunContext.pause(RunContext.SETTLE);
            return HdfsComparison.run(
                    context,
                    List.of(HdfsPlacement.values()),
                    load.saturatedLinks(),
                    (hdfs, placement, server, rows, checks) -> {
                        // A write whose pipeline crosses a busy link gets a few Mbit/s of 100 at first: behind a
                        // long-running flow in a deep FIFO, TCP takes minutes to converge (measured: 30-146 s per
                        // 64 MiB file, 5.4 s idle).
                        Map<Host, List<FileWrite>> written = HdfsComparison.await(
                                HdfsComparison.startWriters(hdfs, writers, placement, FILES, HdfsWrite.MAX_PAUSE),
                                HdfsComparison.timeout(testbed, BYTES, FILES, HdfsWrite.MAX_PAUSE, 100));
                        List<FileWrite> writes =
                                written.values().stream().flatMap(List::stream).toList();
                        HdfsWrite.record(writes, placement, rows, checks);
                        rows.add(HdfsComparison.writerLocal(written, placement));
                        rows.add(new Measurement(
                                ON_BUSY + placement.label(),
                                "replicas",
                                HdfsComparison.replicasOnPercent(writes, busy)));
                        if (placement == HdfsPlacement.CLOUDTALK) {
                            HdfsComparison.writePluginFigures(hdfs, rows, checks);
                        }
                    });
        }
    }
}
