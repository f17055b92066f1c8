package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.task.ItchyOutputFormat;
import org.cloudtalk.itchy.task.Tombstones;

/**
 * The current full result of an Itchy job: its base output overlaid by every committed differential output in order,
 * the latest value of a key winning; and {@code compact}, which writes that result as one output.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyOutput {
    private ItchyOutput() {}

    /**
     * Key to value, in key order: the base output, then each committed differential output in order, its records
     * replacing those of the same keys and its deletions ({@link Tombstones}) removing keys. Refuses an output with
     * several records for one key, which a map cannot hold.
     */
    public static Map<WritableComparable, Writable> current(Configuration conf, String name) throws IOException {
        JobRecord record = ItchyJob.recordOf(conf, name)
                .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded"));
        Map<WritableComparable, Writable> result = new TreeMap<>();
        for (int i = 0; i <= record.committed(); i++) {
            Path output = new Path(record.outputs().get(i));
            readInto(conf, output, result);
            Tombstones.forEach(conf, output, result::remove);
        }
        return result;
    }

    /**
     * Writes the current full result into {@code destination/part-r-00000}, sorted by key, and returns how many keys
     * it holds. The job's own outputs stay as they are: Merge's stored positions point into them.
     */
    public static long compact(Configuration conf, String name, Path destination) throws IOException {
        FileSystem fs = destination.getFileSystem(conf);
        if (fs.exists(destination)) {
            throw new ItchyException(destination + " exists; compact into a new directory");
        }
        Map<WritableComparable, Writable> result = current(conf, name);
        if (result.isEmpty()) {
            fs.mkdirs(destination);
            return 0;
        }
        Map.Entry<WritableComparable, Writable> first =
                result.entrySet().iterator().next();
        try (SequenceFile.Writer writer = SequenceFile.createWriter(
                conf,
                SequenceFile.Writer.file(new Path(destination, ItchyOutputFormat.partFile(0))),
                SequenceFile.Writer.keyClass(first.getKey().getClass()),
                SequenceFile.Writer.valueClass(first.getValue().getClass()),
                ItchyOutputFormat.compression(Job.getInstance(conf), false))) {
            for (Map.Entry<WritableComparable, Writable> entry : result.entrySet()) {
                writer.append(entry.getKey(), entry.getValue());
            }
        }
        return result.size();
    }

    /** A plain job's SequenceFile output (e.g. a full recompute) as the same kind of map, for comparison. */
    public static Map<WritableComparable, Writable> read(Configuration conf, Path dir) throws IOException {
        Map<WritableComparable, Writable> result = new TreeMap<>();
        readInto(conf, dir, result);
        return result;
    }

    private static void readInto(Configuration conf, Path dir, Map<WritableComparable, Writable> result)
            throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        Set<WritableComparable> seen = new TreeSet<>(); // keys of this output, which may repeat earlier outputs' keys
        for (FileStatus part : fs.listStatus(dir, path -> path.getName().startsWith("part-"))) {
            try (SequenceFile.Reader reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(part.getPath()))) {
                WritableComparable key = (WritableComparable) ReflectionUtils.newInstance(reader.getKeyClass(), conf);
                Writable value = (Writable) ReflectionUtils.newInstance(reader.getValueClass(), conf);
                while (reader.next(key, value)) {
                    WritableComparable copy = WritableUtils.clone(key, conf);
                    if (!seen.add(copy)) {
                        throw new ItchyException(
                                dir + " holds several records for key " + key + ", which a key-to-value"
                                        + " result cannot hold; read such a job's outputs with SequenceFile readers instead");
                    }
                    result.put(copy, WritableUtils.clone(value, conf));
                }
            }
        }
    }
}
