package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.FileRead;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsClient;
import org.cloudtalk.testbed.hadoop.HdfsCluster;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.hadoop.ReadJob;
import org.cloudtalk.testbed.net.Host;

/**
 * Figure 6 of the paper (HDFS read): a NameNode in host 0 and a DataNode in every other host. Every DataNode host
 * first writes 2 files (unmeasured); then a
 * share of the DataNode hosts (the busy fraction: the <em>active</em> readers, as in the paper) each read
 * 3 files drawn at random, pausing 0-3 s before each, all at once. A reader draws only among files with
 * no replica on its own host: HDFS reads a local replica from the local disk whatever the placement, and the
 * question is which remote replica serves. The contention is the readers' own: two reads served by one DataNode
 * share its upload link. The same reads run against stock HDFS at its defaults (replicas shuffled), stock at its best
 * ({@code read.considerLoad}: fewest transfers first) and CloudTalk's read ordering, each on a freshly formatted
 * cluster; per-file read time (open to the end of close) is the metric.
 */
public final class HdfsRead extends HdfsExperiment {
    static final String READ_SECONDS = "read-s-";

    private static final int FILES_PER_HOST = 2;
    private static final int READS = 3;

    /** 2 files per DataNode host; 3 reads per active host, as for writes. */
    public HdfsRead() {
        super(
                "hdfs-read",
                List.of(0.1, 0.3, 0.5, 0.7, 0.9),
                "active readers (%)",
                "HDFS read time per file vs share of active readers",
                perPlacement(READ_SECONDS));
    }

    @Override
    public RunResult run(RunContext context) {
        List<Host> dataNodes = HdfsComparison.dataNodes(context.testbed());
        Map<Host, Long> readers = HdfsComparison.seeds(context.pickBusy(dataNodes), context);
        Map<Host, Long> preloaders = new LinkedHashMap<>();
        dataNodes.forEach(h -> preloaders.put(h, (long) h.index()));
        return HdfsComparison.run(context, (hdfs, placement, server, rows, checks) -> {
            List<FileWrite> files = HdfsComparison.write(
                            hdfs, preloaders, placement, FILES_PER_HOST, Duration.ZERO, context.testbed())
                    .values()
                    .stream()
                    .flatMap(List::stream)
                    .toList();
            checks.add(HdfsComparison.noneFailed(placement.label() + " preload write", files, FileWrite::error));
            // The preload's traffic leaves the status daemons' windows before anyone reads.
            RunContext.pause(RunContext.SETTLE);
            List<FileRead> done = read(hdfs, readers, files, placement, context);
            done.stream()
                    .filter(FileRead::ok)
                    .forEach(r -> rows.add(new Measurement(READ_SECONDS + placement.label(), r.path(), r.seconds())));
            checks.add(HdfsComparison.noneFailed(placement.label() + " read", done, this::readError));
            if (placement == HdfsPlacement.CLOUDTALK) {
                HdfsComparison.pluginFigures(
                        hdfs.jmx(),
                        HdfsComparison.NAMENODE_BEAN + "CloudTalkHdfsRead",
                        "cloudtalk-read-",
                        rows,
                        checks);
            }
        });
    }

    private String readError(FileRead read) {
        if (!read.ok()) {
            return read.error();
        }
        return read.bytes() == BYTES ? "" : read.path() + ": read " + read.bytes() + " of " + BYTES + " bytes";
    }

    private List<FileRead> read(
            HdfsCluster hdfs,
            Map<Host, Long> readers,
            List<FileWrite> files,
            HdfsPlacement placement,
            RunContext context) {
        List<HdfsClient<FileRead>> running = new ArrayList<>();
        for (Map.Entry<Host, Long> entry : readers.entrySet()) {
            Host reader = entry.getKey();
            List<String> remote = files.stream()
                    .filter(f -> f.ok() && !f.replicas().contains(reader.address()))
                    .map(FileWrite::path)
                    .toList();
            if (remote.isEmpty()) {
                throw new org.cloudtalk.testbed.TestbedException(
                        "host " + reader.index() + " holds a replica of every file: nothing to read remotely");
            }
            ReadJob job = new ReadJob(
                    placement.label() + "-h" + reader.index(),
                    remote,
                    READS,
                    Duration.ZERO,
                    HdfsWrite.MAX_PAUSE,
                    entry.getValue());
            running.add(hdfs.startReader(reader, job));
        }
        Duration timeout = HdfsComparison.timeout(context.testbed(), BYTES, READS, HdfsWrite.MAX_PAUSE);
        List<FileRead> done = new ArrayList<>();
        running.forEach(r -> done.addAll(r.await(timeout)));
        return done;
    }
}
