package org.cloudtalk.itchy.mo;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.technique.BytesKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The intermediate keys an MO increment's map task emitted, by reduce partition, so that each reducer can read its
 * keys' stored values ahead of reducing them without a separate pass over the appended records. A map task writes,
 * per partition, one file of its distinct keys sorted as the reducer will visit them (the job's sort comparator); a
 * reducer merges its partition's files as a stream, so its first reads start at once. Files of failed attempts only
 * repeat keys (a deterministic mapper emits the same keys again), and a key missing from the files is read when the
 * reducer reaches it: the notes only make the reads faster.
 */
public final class TouchedKeys {
    private static final Logger log = LoggerFactory.getLogger(TouchedKeys.class);

    private final List<Set<BytesKey>> byPartition = new ArrayList<>();

    @SuppressWarnings("rawtypes")
    private final Partitioner partitioner;

    private final int partitions;
    private final int max;
    private int noted;

    @SuppressWarnings("rawtypes")
    public TouchedKeys(Configuration conf, Partitioner partitioner, int partitions) {
        this.partitioner = partitioner;
        this.partitions = partitions;
        this.max = conf.getInt(ItchyConf.MO_TOUCHED_KEYS_MAX, 2_000_000);
        for (int i = 0; i < partitions; i++) {
            byPartition.add(new HashSet<>());
        }
    }

    /** Notes a key the map emitted, serialized in {@code bytes[0, length)}, with the value it was emitted with. */
    @SuppressWarnings("unchecked")
    public void add(Object key, Object value, byte[] bytes, int length) {
        if (noted == max) {
            return;
        }
        // As MapTask does: with one reducer, the partitioner is never asked.
        int partition = partitions == 1 ? 0 : partitioner.getPartition(key, value, partitions);
        if (byPartition.get(partition).add(new BytesKey(bytes, length)) && ++noted == max) {
            log.warn(
                    "map task noted {} distinct keys ({}); reducers read the stored values of the rest one by one",
                    max,
                    ItchyConf.MO_TOUCHED_KEYS_MAX);
        }
    }

    public void write(Configuration conf, Path dir, TaskAttemptID attempt, RawComparator<?> sort) throws IOException {
        for (int partition = 0; partition < partitions; partition++) {
            if (byPartition.get(partition).isEmpty()) {
                continue;
            }
            List<byte[]> keys = new ArrayList<>(byPartition.get(partition).size());
            byPartition.get(partition).forEach(key -> keys.add(key.bytes()));
            keys.sort((a, b) -> compare(sort, a, b));
            try (SequenceFile.Writer writer = SequenceFile.createWriter(
                    conf,
                    SequenceFile.Writer.file(new Path(dir, prefix(partition) + attempt)),
                    SequenceFile.Writer.keyClass(BytesWritable.class),
                    SequenceFile.Writer.valueClass(NullWritable.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE))) {
                BytesWritable key = new BytesWritable();
                for (byte[] bytes : keys) {
                    key.set(bytes, 0, bytes.length);
                    writer.append(key, NullWritable.get());
                }
            }
        }
    }

    /** Two whole serialized keys, by one of the job's raw comparators. */
    static int compare(RawComparator<?> comparator, byte[] a, byte[] b) {
        return comparator.compare(a, 0, a.length, b, 0, b.length);
    }

    private static String prefix(int partition) {
        return "p" + partition + "-";
    }

    /**
     * One partition's keys from all map tasks' notes, merged in the order its reducer visits them, one per group of
     * keys the grouping comparator treats as one.
     */
    static final class Reader implements Closeable {
        private record Head(byte[] key, SequenceFile.Reader file) {}

        private final RawComparator<?> sort;
        private final RawComparator<?> grouping;
        private final PriorityQueue<Head> heads;
        private final List<SequenceFile.Reader> files = new ArrayList<>();
        private final BytesWritable key = new BytesWritable();
        private byte[] last;

        Reader(Configuration conf, Path dir, int partition, RawComparator<?> sort, RawComparator<?> grouping)
                throws IOException {
            this.sort = sort;
            this.grouping = grouping;
            this.heads = new PriorityQueue<>((a, b) -> compare(sort, a.key(), b.key()));
            FileSystem fs = dir.getFileSystem(conf);
            if (!fs.exists(dir)) {
                return;
            }
            try {
                for (FileStatus status :
                        fs.listStatus(dir, path -> path.getName().startsWith(prefix(partition)))) {
                    SequenceFile.Reader file =
                            new SequenceFile.Reader(conf, SequenceFile.Reader.file(status.getPath()));
                    files.add(file);
                    advance(file);
                }
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        /** The next key to visit, or null after the last. */
        byte[] next() throws IOException {
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                advance(head.file());
                if (last == null || compare(grouping, last, head.key()) != 0) {
                    last = head.key();
                    return last;
                }
            }
            return null;
        }

        private void advance(SequenceFile.Reader file) throws IOException {
            if (file.next(key, NullWritable.get())) {
                heads.add(new Head(key.copyBytes(), file));
            }
        }

        @Override
        public void close() throws IOException {
            for (SequenceFile.Reader file : files) {
                file.close();
            }
        }
    }
}
