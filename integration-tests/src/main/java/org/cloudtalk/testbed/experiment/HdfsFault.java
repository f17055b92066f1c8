package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsClient;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.net.Host;

/**
 * Issue 14's fault: the CloudTalk server is stopped and started again while HDFS writes. The active writers (the
 * busy fraction of the DataNode hosts) each write 10 files of 64 MiB (3 replicas, 0-3 s pauses), once with
 * stock HDFS at its defaults and once with CloudTalk's placement policy, whose server stops {@link #STOP_AFTER} after
 * the writers start and starts again (same address and port) {@link #DOWN} later. No write may fail; CloudTalk's
 * write times are recorded by when each file started — before the stop, while the server was down, after it came
 * back — to show them fall back to stock's and recover.
 */
public final class HdfsFault extends HdfsExperiment {
    static final Duration STOP_AFTER = Duration.ofSeconds(15);
    static final Duration DOWN = Duration.ofSeconds(20);
    /** 10 files per writer: at 100 Mbit/s and 50% active writers, about a minute of writing. */
    private static final int FILES = 10;

    public HdfsFault() {
        super(
                "hdfs-fault",
                List.of(0.5),
                "active writers (%)",
                "HDFS write time per file, CloudTalk server stopped and restarted mid-run",
                List.of(
                        HdfsWrite.WRITE_SECONDS + HdfsPlacement.STOCK_DEFAULTS.label(),
                        HdfsWrite.WRITE_SECONDS + "cloudtalk-before",
                        HdfsWrite.WRITE_SECONDS + "cloudtalk-down",
                        HdfsWrite.WRITE_SECONDS + "cloudtalk-after"));
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        Map<Host, Long> writers = HdfsComparison.seeds(context.pickBusy(HdfsComparison.dataNodes(testbed)), context);
        List<HdfsPlacement> placements = List.of(HdfsPlacement.STOCK_DEFAULTS, HdfsPlacement.CLOUDTALK);
        return HdfsComparison.run(context, placements, java.util.Set.of(), (hdfs, placement, server, rows, checks) -> {
            Map<Host, HdfsClient<FileWrite>> running =
                    HdfsComparison.startWriters(hdfs, writers, placement, FILES, HdfsWrite.MAX_PAUSE);
            long stoppedAt = Long.MAX_VALUE;
            long backAt = Long.MAX_VALUE;
            if (placement == HdfsPlacement.CLOUDTALK) {
                RunContext.pause(STOP_AFTER);
                stoppedAt = System.currentTimeMillis();
                server.stop();
                RunContext.pause(DOWN);
                server.restart();
                backAt = System.currentTimeMillis();
                rows.add(new Measurement("server-down-s", "stop to answering again", (backAt - stoppedAt) / 1000.0));
            }
            List<FileWrite> writes = HdfsComparison.await(
                            running, HdfsComparison.timeout(testbed, BYTES, FILES, HdfsWrite.MAX_PAUSE))
                    .values()
                    .stream()
                    .flatMap(List::stream)
                    .toList();
            checks.add(HdfsComparison.noneFailed(placement.label() + " write", writes, FileWrite::error));
            for (FileWrite write : writes.stream().filter(FileWrite::ok).toList()) {
                String metric = HdfsWrite.WRITE_SECONDS + placement.label();
                if (placement == HdfsPlacement.CLOUDTALK) {
                    metric = HdfsComparison.inPeriod(metric, write, stoppedAt, backAt, "down");
                }
                rows.add(new Measurement(metric, write.path(), write.seconds()));
            }
            if (placement == HdfsPlacement.CLOUDTALK) {
                HdfsComparison.writePluginFigures(hdfs, rows, checks);
            }
        });
    }
}
