package org.cloudtalk.itchy.task;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.technique.TaskSettings;

/**
 * The deletions of a differential output: {@code deleted-r-NNNNN} SequenceFiles next to its {@code part-r-NNNNN}
 * files, keys of the job's output key class with {@link NullWritable} values, naming the keys that no longer have an
 * output record. An increment of a recompute-class job (QMC, MO) writes one when the user's reducer, given all of a
 * touched key's values, emits nothing for it (a HAVING-like filter). Only for jobs whose output keys are their
 * intermediate keys: otherwise the key an earlier record was written under is unknown.
 */
public final class Tombstones implements Closeable {
    static final String PREFIX = "deleted-";

    private final Configuration conf;
    private final Path file;
    private final Class<?> keyClass;
    private SequenceFile.Writer writer;

    private Tombstones(Configuration conf, Path file, Class<?> keyClass) {
        this.conf = conf;
        this.file = file;
        this.keyClass = keyClass;
    }

    /** The task's tombstone file, or null if its job cannot delete (not an increment, Merge, other output keys). */
    static Tombstones forTask(TaskSettings settings, TaskInputOutputContext<?, ?, ?, ?> context)
            throws IOException, InterruptedException {
        if (!settings.incremental()
                || settings.mode() == ItchyMode.MERGE
                || !context.getMapOutputKeyClass().equals(context.getOutputKeyClass())) {
            return null;
        }
        Path file = new Path(
                FileOutputFormat.getWorkOutputPath(context),
                String.format(
                        "%sr-%05d",
                        PREFIX, context.getTaskAttemptID().getTaskID().getId()));
        return new Tombstones(context.getConfiguration(), file, context.getOutputKeyClass());
    }

    void add(Object key) throws IOException {
        if (writer == null) { // most tasks delete nothing: no empty files
            writer = SequenceFile.createWriter(
                    conf,
                    SequenceFile.Writer.file(file),
                    SequenceFile.Writer.keyClass(keyClass),
                    SequenceFile.Writer.valueClass(NullWritable.class));
        }
        writer.append(key, NullWritable.get());
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            writer.close();
        }
    }

    /** Every key a differential output deletes. */
    public static void forEach(Configuration conf, Path dir, Consumer<WritableComparable<?>> action)
            throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        for (FileStatus status : fs.listStatus(dir, path -> path.getName().startsWith(PREFIX))) {
            try (SequenceFile.Reader reader =
                    new SequenceFile.Reader(conf, SequenceFile.Reader.file(status.getPath()))) {
                WritableComparable<?> key =
                        (WritableComparable<?>) ReflectionUtils.newInstance(reader.getKeyClass(), conf);
                while (reader.next(key)) {
                    action.accept(key);
                }
            }
        }
    }
}
