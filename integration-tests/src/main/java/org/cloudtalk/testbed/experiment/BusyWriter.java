package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;

/**
 * The writer's own host is busy (issue 14): every host has a throttled disk of its own (the testbed is up with {@code
 * --disk-rate}), a share of the DataNode hosts (the busy fraction) run a disk hog (continuous buffered writes), and
 * two of them write 3 files of 64 MiB each (3 replicas, pausing 0-3 s before each). Stock HDFS puts the first replica
 * on the writer's own DataNode whatever its disk carries (considerLoad counts transfers, and exempts the writer's
 * node: HDFS-16275); CloudTalk judges the local node like any other. A busy disk, not busy links: whatever the
 * placement, every byte of a write leaves through the writer's upload, so busy links slow every placement alike.
 * Per-file write time, the share of files with a replica on the writer's own host, and the share of replicas on
 * busy hosts, per placement.
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
                "hosts with a busy disk (%)",
                "HDFS write time per file when the writers' own disks are busy",
                perPlacement(HdfsWrite.WRITE_SECONDS));
    }

    @Override
    public void check(TestbedConfig config) {
        Disks.requirePerHost(config, name());
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        Disks.requirePerHost(testbed.state(), name());
        List<Host> busy = context.pickBusy(HdfsComparison.dataNodes(testbed));
        // pickBusy picks at least two: the writers.
        Map<Host, Long> writers = HdfsComparison.seeds(busy.subList(0, WRITERS), context);
        // Longer than any run: close() stops it.
        try (BackgroundLoad load =
                new BackgroundLoad(testbed).diskHogs(busy, BackgroundLoad.DiskHog.WRITE, Duration.ofHours(1))) {
            RunContext.pause(RunContext.SETTLE);
            return HdfsComparison.run(context, (hdfs, placement, server, rows, checks) -> {
                Map<Host, List<FileWrite>> written =
                        HdfsComparison.write(hdfs, writers, placement, FILES, HdfsWrite.MAX_PAUSE, testbed);
                List<FileWrite> writes =
                        written.values().stream().flatMap(List::stream).toList();
                HdfsWrite.record(writes, placement, rows, checks);
                rows.add(HdfsComparison.writerLocal(written, placement));
                rows.add(new Measurement(
                        ON_BUSY + placement.label(), "replicas", HdfsComparison.replicasOnPercent(writes, busy)));
                if (placement == HdfsPlacement.CLOUDTALK) {
                    HdfsComparison.writePluginFigures(hdfs, rows, checks);
                }
            });
        }
    }
}
