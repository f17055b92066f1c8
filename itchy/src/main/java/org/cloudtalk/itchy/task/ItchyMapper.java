package org.cloudtalk.itchy.task;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.itchy.ItchyCounters;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.mo.TouchedKeys;
import org.cloudtalk.itchy.qmc.KeyFiles;
import org.cloudtalk.itchy.technique.BytesKey;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.TaskSettings;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's unchanged mapper. For QMC it turns each value it writes into an {@link ItchyValue}: the serialized
 * value plus the dataset and offset of the input record, which ride the shuffle to the reducer; for MO and Merge the
 * values pass through as they are. When QMC re-reads base records for an increment of a job whose records emit
 * several keys, keys the appended records did not produce are dropped (post-filtering, §5.6.2). In an MO increment
 * it notes the keys it emits ({@link TouchedKeys}) so that the reducers can read their stored values ahead. A task of a
 * QMC increment that re-reads several base files runs a new instance of the user's mapper per file ({@link InputParts}).
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyMapper extends Mapper<Object, Object, Object, Object> {
    /**
     * Records what the task fails with for the driver ({@link TaskFailure}): the user's code, and Itchy's own work
     * around it (settings, stored data, key notes, HFiles), which fails on a cluster when a jar is missing.
     */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> runTask(context));
    }

    private void runTask(Context context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        TaskSettings settings = TaskSettings.of(conf);
        TouchedKeys touched = settings.mode() == ItchyMode.MO
                        && settings.incremental()
                        && conf.get(TaskKeys.MO_TOUCHED_KEYS) != null
                        && context.getNumReduceTasks() > 0
                ? new TouchedKeys(conf, partitioner(context), context.getNumReduceTasks())
                : null;
        // Counted locally and added to the task's counters once: a counter lookup per record is measurable.
        long[] counts = new long[ItchyCounters.values().length];
        Set<BytesKey> relevant = null;
        InputParts parts = new InputParts(context);
        while (parts.next()) {
            FileSplit split = (FileSplit) parts.split();
            int dataset = settings.datasetOf(split.getPath());
            // Only jobs whose records emit several keys need post-filtering; ItchyJob sets the key list only for those.
            if (relevant == null
                    && conf.get(TaskKeys.RELEVANT_KEYS) != null
                    && !settings.newDatasets().contains(dataset)) {
                relevant = relevantKeys(conf);
            }
            new PartRun(context, settings, split, dataset, parts, relevant, touched, counts).run();
        }
        if (touched != null) {
            touched.write(
                    conf,
                    new Path(conf.get(TaskKeys.MO_TOUCHED_KEYS)),
                    context.getTaskAttemptID(),
                    context.getSortComparator());
        }
        for (ItchyCounters counter : ItchyCounters.values()) {
            if (counts[counter.ordinal()] > 0) {
                context.getCounter(counter).increment(counts[counter.ordinal()]);
            }
        }
    }

    /** A new instance of the user's mapper over one part of the task's input, as in a task of its own. */
    private static final class PartRun {
        private final Context context;
        private final InputParts parts;
        private final Set<BytesKey> relevant;
        private final TouchedKeys touched;
        private final long[] counts;
        private final Mapper user;
        private final InputSplit split;
        private final int dataset;
        private final boolean wrap;
        private final boolean recordOffsets;
        private final boolean rereadingBase;
        private final ItchyValue itchyValue = new ItchyValue();
        private final Writables writables = new Writables();
        private final DataOutputBuffer keyBuffer = new DataOutputBuffer();
        private int emitsOfRecord;
        private boolean mapping;

        PartRun(
                Context context,
                TaskSettings settings,
                InputSplit split,
                int dataset,
                InputParts parts,
                Set<BytesKey> relevant,
                TouchedKeys touched,
                long[] counts) {
            Configuration conf = context.getConfiguration();
            this.context = context;
            this.parts = parts;
            this.touched = touched;
            this.counts = counts;
            this.user = (Mapper) Writables.newInstance(conf.getClass(TaskKeys.USER_MAPPER, Mapper.class), conf);
            this.split = split;
            this.dataset = dataset;
            boolean newData = settings.newDatasets().contains(dataset);
            this.relevant = newData ? null : relevant;
            this.wrap = settings.carriesOffsets();
            this.recordOffsets = wrap && (!settings.incremental() || newData);
            this.rereadingBase = settings.mode() == ItchyMode.QMC && settings.incremental() && !newData;
        }

        void run() throws IOException, InterruptedException {
            Mapper.Context wrapped = new WrappedMapper().new Context(context) {
                @Override
                public InputSplit getInputSplit() {
                    return split;
                }

                @Override
                public Object getCurrentKey() throws IOException, InterruptedException {
                    return current() ? context.getCurrentKey() : null;
                }

                @Override
                public Object getCurrentValue() throws IOException, InterruptedException {
                    return current() ? context.getCurrentValue() : null;
                }

                @Override
                public boolean nextKeyValue() throws IOException, InterruptedException {
                    return next();
                }

                @Override
                public void write(Object key, Object value) throws IOException, InterruptedException {
                    PartRun.this.write(key, value);
                }
            };
            user.run(wrapped);
            if (emitsOfRecord > 1) {
                counts[ItchyCounters.RECORDS_WITH_MULTIPLE_KEYS.ordinal()]++;
            }
        }

        /**
         * Whether the task's current record is this part's. Outside its records (in {@code setup()}, and in
         * {@code cleanup()} once the reader holds the next part's first record) a part shows no current record, as
         * Hadoop's record readers show none before their first record and after their last.
         */
        private boolean current() {
            return mapping || !parts.combined();
        }

        private boolean next() throws IOException, InterruptedException {
            if (emitsOfRecord > 1) {
                counts[ItchyCounters.RECORDS_WITH_MULTIPLE_KEYS.ordinal()]++;
            }
            emitsOfRecord = 0;
            boolean more = parts.nextKeyValue();
            mapping = more;
            if (more) {
                counts[ItchyCounters.MAP_INPUT_RECORDS.ordinal()]++;
                if (context.getCurrentValue() instanceof org.apache.hadoop.io.Text line) {
                    counts[ItchyCounters.INPUT_BYTES_MAPPED.ordinal()] += line.getLength() + 1;
                }
                if (rereadingBase) {
                    counts[ItchyCounters.BASE_RECORDS_REREAD.ordinal()]++;
                }
            }
            return more;
        }

        private void write(Object key, Object value) throws IOException, InterruptedException {
            emitsOfRecord++;
            if (relevant != null) {
                keyBuffer.reset();
                ((Writable) key).write(keyBuffer);
                if (!relevant.contains(new BytesKey(keyBuffer.getData(), keyBuffer.getLength()))) {
                    counts[ItchyCounters.POST_FILTERED.ordinal()]++;
                    return;
                }
            }
            counts[ItchyCounters.MAP_OUTPUT_RECORDS.ordinal()]++;
            if (touched != null) {
                keyBuffer.reset();
                ((Writable) key).write(keyBuffer);
                touched.add(key, value, keyBuffer.getData(), keyBuffer.getLength());
            }
            if (!wrap) {
                context.write(key, value);
                return;
            }
            if (!mapping) {
                // QMC tags each value with the record it came from; the first job's record check catches most such
                // mappers, this the rest (a job whose stored technique predates the check, say).
                throw new IOException("QMC needs a mapper that writes each record's output while mapping that record,"
                        + " but " + user.getClass().getName() + " wrote in setup() or cleanup(); run the job with"
                        + " itchy.mode=mo");
            }
            DataOutputBuffer serialized = writables.serialize((Writable) value);
            itchyValue.set(serialized.getData(), serialized.getLength());
            if (recordOffsets) {
                itchyValue.addOffset(dataset, ((LongWritable) context.getCurrentKey()).get());
            }
            counts[ItchyCounters.MAP_OUTPUT_VALUE_BYTES.ordinal()] += serialized.getLength();
            context.write(key, itchyValue);
        }
    }

    private static Partitioner partitioner(Context context) throws IOException {
        try {
            return (Partitioner) ReflectionUtils.newInstance(context.getPartitionerClass(), context.getConfiguration());
        } catch (ClassNotFoundException e) {
            throw new IOException("the job's partitioner class is not on the task's classpath", e);
        }
    }

    /** The serialized intermediate keys the appended records produced (written by ItchyJob's first QMC pass). */
    private static Set<BytesKey> relevantKeys(Configuration conf) throws IOException {
        Set<BytesKey> keys = new HashSet<>();
        KeyFiles.forEach(
                conf,
                new Path(conf.get(TaskKeys.RELEVANT_KEYS)),
                key -> keys.add(new BytesKey(key.getBytes(), key.getLength())));
        return keys;
    }
}
