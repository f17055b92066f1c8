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
 * Figure 5 of the paper (HDFS write with busy disks): every host has a throttled disk of its own (the testbed is up
 * with {@code --disk-rate}), a share of the DataNode hosts (the busy fraction) run a disk hog (continuous direct
 * writes), and one client in host 0 (the NameNode's host, no DataNode: every replica is a placement decision)
 * writes 8 files of 64 MiB (3 replicas, pausing 0-3 s before each). Stock
 * HDFS does not see disk load (considerLoad counts transfers); CloudTalk's write query has every replica write to
 * its disk. Per-file write time and the share of replicas on hogged hosts, per placement.
 */
public final class HdfsDisk extends HdfsExperiment {
    private static final int FILES = 8;

    public HdfsDisk() {
        super(
                "hdfs-disk",
                List.of(0.1, 0.3, 0.5, 0.7),
                "hosts with a busy disk (%)",
                "HDFS write time per file vs share of busy disks",
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
        List<Host> hogged = context.pickBusy(HdfsComparison.dataNodes(testbed));
        Map<Host, Long> writer = HdfsComparison.seeds(List.of(testbed.host(0)), context);
        // Longer than any run: close() stops it.
        try (BackgroundLoad load =
                new BackgroundLoad(testbed).diskHogs(hogged, BackgroundLoad.DiskHog.WRITE, Duration.ofHours(1))) {
            RunContext.pause(RunContext.SETTLE);
            return HdfsComparison.run(context, (hdfs, placement, server, rows, checks) -> {
                List<FileWrite> writes =
                        HdfsComparison.write(hdfs, writer, placement, FILES, HdfsWrite.MAX_PAUSE, testbed)
                                .values()
                                .stream()
                                .flatMap(List::stream)
                                .toList();
                HdfsWrite.record(writes, placement, rows, checks);
                rows.add(new Measurement(
                        BusyWriter.ON_BUSY + placement.label(),
                        "replicas",
                        HdfsComparison.replicasOnPercent(writes, hogged)));
                if (placement == HdfsPlacement.CLOUDTALK) {
                    HdfsComparison.writePluginFigures(hdfs, rows, checks);
                }
            });
        }
    }
}
