package org.cloudtalk.itchy.qmc;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.cloudtalk.itchy.technique.TaskKeys;

/**
 * The base records a QMC increment re-reads: per base dataset, the sorted offsets of its relevant records. They go to
 * one file of big-endian longs, dataset after dataset, and the configuration says which slice of it belongs to which
 * dataset. One file, because closing an HDFS file waits for the NameNode (~0.4 s): a file per dataset cost most of a
 * 3 GB increment's lookup phase. A task reads only its split's slice.
 */
final class RelevantOffsets {
    /** A run of {@code count} offsets starting at the {@code first}-th long of the file. */
    record Slice(long first, int count) {
        Slice sub(int from, int to) {
            return new Slice(first + from, to - from);
        }
    }

    private RelevantOffsets() {}

    /** Writes the offsets (each array sorted ascending) and records the file and its slices in {@code conf}. */
    static long write(Configuration conf, Path file, SortedMap<Integer, long[]> offsetsByDataset) throws IOException {
        long written = 0;
        StringBuilder slices = new StringBuilder();
        try (DataOutputStream out = new DataOutputStream(
                new BufferedOutputStream(file.getFileSystem(conf).create(file), 1 << 16))) {
            for (Map.Entry<Integer, long[]> dataset : offsetsByDataset.entrySet()) {
                for (long offset : dataset.getValue()) {
                    out.writeLong(offset);
                }
                slices.append(slices.isEmpty() ? "" : ",")
                        .append(dataset.getKey())
                        .append('=')
                        .append(written)
                        .append(':')
                        .append(dataset.getValue().length);
                written += dataset.getValue().length;
            }
        }
        conf.set(TaskKeys.RELEVANT_OFFSETS, file.toString());
        conf.set(TaskKeys.RELEVANT_OFFSET_SLICES, slices.toString());
        return written;
    }

    /** Each base dataset's slice; a dataset without relevant records has none. */
    static Map<Integer, Slice> slices(Configuration conf) {
        Map<Integer, Slice> slices = new HashMap<>();
        for (String entry : conf.getTrimmedStrings(TaskKeys.RELEVANT_OFFSET_SLICES)) {
            int equals = entry.indexOf('=');
            int colon = entry.indexOf(':', equals);
            slices.put(
                    Integer.parseInt(entry.substring(0, equals)),
                    new Slice(
                            Long.parseLong(entry.substring(equals + 1, colon)),
                            Integer.parseInt(entry.substring(colon + 1))));
        }
        return slices;
    }

    static long[] read(Configuration conf, Slice slice) throws IOException {
        Path file = new Path(conf.get(TaskKeys.RELEVANT_OFFSETS));
        byte[] bytes = new byte[Math.multiplyExact(slice.count(), Long.BYTES)];
        try (FSDataInputStream in = file.getFileSystem(conf).open(file)) {
            in.readFully(slice.first() * Long.BYTES, bytes);
        }
        long[] offsets = new long[slice.count()];
        ByteBuffer.wrap(bytes).asLongBuffer().get(offsets);
        return offsets;
    }
}
