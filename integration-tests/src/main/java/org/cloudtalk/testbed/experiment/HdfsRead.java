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
    /** Per read: the seconds of it during which the DataNode serving it also served another measured read. */
    static final String SHARED_SOURCE_SECONDS = "read-shared-source-s-";
    /**
     * Per run: the share of reads (%) that began on a DataNode already serving another read while a replica of their
     * file was on a DataNode serving none, i.e. a second reader on one source that the order could have avoided.
     */
    static final String AVOIDABLE_SHARED = "read-avoidable-shared-%-";

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
            List<FileRead> ok = done.stream().filter(FileRead::ok).toList();
            ok.forEach(r -> rows.add(new Measurement(READ_SECONDS + placement.label(), r.path(), r.seconds())));
            ok.forEach(r -> rows.add(
                    new Measurement(SHARED_SOURCE_SECONDS + placement.label(), r.path(), sharedSourceSeconds(r, ok))));
            Map<String, List<String>> replicas = new LinkedHashMap<>();
            files.forEach(f -> replicas.put(f.path(), f.replicas()));
            long avoidable =
                    ok.stream().filter(r -> avoidablyShared(r, ok, replicas)).count();
            rows.add(new Measurement(
                    AVOIDABLE_SHARED + placement.label(), "run", ok.isEmpty() ? 0 : 100.0 * avoidable / ok.size()));
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

    /**
     * How long {@code read} shared its DataNode with other reads of {@code all}: the time within it during which at
     * least one other read was served by the same DataNode. A read that took twice the idle time with none of it shared
     * was slowed by something other than a second reader on its source.
     */
    static double sharedSourceSeconds(FileRead read, List<FileRead> all) {
        double start = read.startMillis() / 1000.0;
        double end = start + read.seconds();
        List<double[]> overlaps = new ArrayList<>();
        for (FileRead other : all) {
            if (other != read && !read.dataNode().isEmpty() && other.dataNode().equals(read.dataNode())) {
                double from = Math.max(start, other.startMillis() / 1000.0);
                double to = Math.min(end, other.startMillis() / 1000.0 + other.seconds());
                if (from < to) {
                    overlaps.add(new double[] {from, to});
                }
            }
        }
        overlaps.sort((a, b) -> Double.compare(a[0], b[0]));
        double shared = 0;
        double coveredTo = Double.NEGATIVE_INFINITY;
        for (double[] overlap : overlaps) {
            double from = Math.max(overlap[0], coveredTo);
            if (overlap[1] > from) {
                shared += overlap[1] - from;
                coveredTo = overlap[1];
            }
        }
        return shared;
    }

    /**
     * Whether {@code read} began on a DataNode that was serving another read of {@code all} at that instant while
     * another replica of its file ({@code replicas} by path) was on a DataNode serving none.
     */
    static boolean avoidablyShared(FileRead read, List<FileRead> all, Map<String, List<String>> replicas) {
        long at = read.startMillis();
        if (servingAt(read.dataNode(), at, read, all) == 0) {
            return false;
        }
        return replicas.getOrDefault(read.path(), List.of()).stream()
                .anyMatch(replica -> !replica.equals(read.dataNode()) && servingAt(replica, at, read, all) == 0);
    }

    /** How many reads of {@code all} other than {@code except} {@code dataNode} was serving at {@code millis}. */
    private static long servingAt(String dataNode, long millis, FileRead except, List<FileRead> all) {
        return all.stream()
                .filter(other -> other != except && other.dataNode().equals(dataNode))
                .filter(other -> other.startMillis() <= millis
                        && millis < other.startMillis() + Math.round(other.seconds() * 1000))
                .count();
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
            // A file with a replica here warms the reader up without a network transfer or a read ordering.
            String warmUp = files.stream()
                    .filter(f -> f.ok() && f.replicas().contains(reader.address()))
                    .map(FileWrite::path)
                    .findFirst()
                    .orElse(remote.get(0));
            ReadJob job = new ReadJob(
                    placement.label() + "-h" + reader.index(),
                    remote,
                    warmUp,
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
