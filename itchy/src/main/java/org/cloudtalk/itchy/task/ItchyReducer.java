package org.cloudtalk.itchy.task;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.cloudtalk.itchy.ItchyCounters;
import org.cloudtalk.itchy.ItchyException;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.mo.StoredValueCombiner;
import org.cloudtalk.itchy.mo.StoredValuesPrefetch;
import org.cloudtalk.itchy.qmc.DistinctKeysReducer;
import org.cloudtalk.itchy.store.BulkCells;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.TaskSettings;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's unchanged reducer. For each key it stores Itchy's incremental data (bulk-loaded once the job has
 * succeeded, see {@link BulkCells}): QMC the key's offsets (piggy-backed through the shuffle), MO the key's
 * intermediate values (folded by the job's combiner, if it has one). For an MO increment it first reads the key's
 * stored values (read ahead in batches) and hands them to the reducer ahead of the new ones (Algorithm 1). In an
 * increment, a key for which the user's reducer emits nothing is written as deleted ({@link Tombstones}); QMC and MO
 * refuse a reducer that writes under any other key than the one it reduces.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyReducer extends Reducer<Object, Object, Object, Object> {
    /** Records what the task fails with for the driver, as {@link ItchyMapper#run} does. */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> runTask(context));
    }

    private void runTask(Context context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        TaskSettings settings = TaskSettings.of(conf);
        Reducer user = (Reducer) Writables.newInstance(conf.getClass(TaskKeys.USER_REDUCER, Reducer.class), conf);
        Class<?> valueClass = conf.getClass(TaskKeys.USER_MAP_VALUE, Writable.class);
        boolean persists = settings.stores() && (settings.mode() == ItchyMode.QMC || settings.mode() == ItchyMode.MO);
        try (Connection connection = persists ? ConnectionFactory.createConnection(conf) : null;
                BulkCells cells = persists
                        ? new BulkCells(
                                conf,
                                FileOutputFormat.getWorkOutputPath(context),
                                context.getTaskAttemptID().getTaskID().toString())
                        : null;
                Table table = persists ? connection.getTable(ItchyStore.table(conf)) : null;
                StoredValuesPrefetch prefetch = prefetch(conf, settings, connection, context);
                Tombstones tombstones = Tombstones.forTask(settings, context)) {
            Writables writables = new Writables();
            UserValues.Factory userValues = new UserValues.Factory(valueClass, conf);
            Class<?> combinerClass = conf.getClass(TaskKeys.USER_COMBINER, null);
            StoredValueCombiner storedCombiner = settings.mode() == ItchyMode.MO && combinerClass != null
                    ? new StoredValueCombiner(conf, combinerClass, valueClass, context)
                    : null;
            UserValues[] current = {null}; // the key being reduced
            Runnable finishKey = () -> {
                if (current[0] == null) {
                    return;
                }
                current[0].drain(); // persists the key's last chunk
                current[0] = null;
            };
            boolean[] reducing = {false}; // a key is being reduced
            boolean[] emitted = {false}; // the user's reducer wrote output under it
            // QMC and MO overlay an increment's records, and its deletions, by the key reduced: a record written under
            // another key could never be replaced or deleted by a later increment. (A QMC key pass's own reducer writes
            // its keys' bytes, not the job's result.)
            boolean sameKeyOnly = (settings.mode() == ItchyMode.QMC || settings.mode() == ItchyMode.MO)
                    && !(user instanceof DistinctKeysReducer);
            Reducer.Context wrapped = new WrappedReducer().new Context(context) {
                @Override
                public boolean nextKey() throws IOException, InterruptedException {
                    finishKey.run();
                    if (tombstones != null && reducing[0] && !emitted[0]) {
                        tombstones.add(context.getCurrentKey()); // still the key just reduced
                    }
                    emitted[0] = false;
                    reducing[0] = context.nextKey();
                    return reducing[0];
                }

                @Override
                public void write(Object key, Object value) throws IOException, InterruptedException {
                    if (sameKeyOnly && !key.equals(context.getCurrentKey())) {
                        throw otherKeyWritten(settings.mode(), key, context.getCurrentKey());
                    }
                    emitted[0] = true;
                    context.write(key, value);
                }

                @Override
                public Iterable getValues() throws IOException, InterruptedException {
                    if (current[0] != null) {
                        return current[0]; // Reducer.run asks again after reduce(): same values
                    }
                    byte[] key = persists ? writables.bytes((Writable) context.getCurrentKey()) : null;
                    byte[] row = persists ? ItchyStore.row(settings.signature(), key) : null;
                    List<byte[]> stored = settings.mode() == ItchyMode.MO && settings.incremental()
                            ? storedValues(prefetch, table, key, row, settings.visible(), context)
                            : List.of();
                    UserValues values = userValues.of(
                            context.getValues(),
                            stored,
                            settings.mode() == ItchyMode.MO,
                            persists ? sink(settings, row, cells, storedCombiner, context) : null);
                    current[0] = values;
                    return values;
                }
            };
            user.run(wrapped);
            finishKey.run();
        }
    }

    private static ItchyException otherKeyWritten(ItchyMode mode, Object written, Object reduced) {
        return new ItchyException("the reducer wrote a record under key '" + written + "' while reducing key '"
                + reduced + "': " + mode + " needs a reducer that writes only under the key it reduces (an increment"
                + " replaces or deletes each reduced key's record); change the reducer, or run the job with"
                + " itchy.mode=off");
    }

    /** For an MO increment: this task's stored values, read ahead in the order the reducer visits its keys. */
    private static StoredValuesPrefetch prefetch(
            Configuration conf, TaskSettings settings, Connection connection, Context context) {
        String notes = conf.get(TaskKeys.MO_TOUCHED_KEYS);
        if (settings.mode() != ItchyMode.MO || !settings.incremental() || notes == null) {
            return null;
        }
        return new StoredValuesPrefetch(
                conf,
                connection,
                new Path(notes),
                context.getTaskAttemptID().getTaskID().getId(),
                context.getSortComparator(),
                context.getGroupingComparator(),
                settings.signature());
    }

    private static List<byte[]> storedValues(
            StoredValuesPrefetch prefetch, Table table, byte[] key, byte[] row, Generations visible, Context context)
            throws IOException, InterruptedException {
        Result result = prefetch == null ? null : prefetch.take(key);
        if (result == null) {
            result = table.get(new Get(row).addFamily(ItchyStore.MO));
            context.getCounter(ItchyCounters.STORED_ROWS_READ_DIRECTLY).increment(1);
        }
        List<byte[]> values = new ArrayList<>();
        List<byte[]> concatenated = ItchyStore.visible(result, ItchyStore.MO, "v", visible);
        List<byte[]> lengths = ItchyStore.visible(result, ItchyStore.MO, "l", visible);
        for (int i = 0; i < Math.min(concatenated.size(), lengths.size()); i++) {
            StoredValueCombiner.split(concatenated.get(i), lengths.get(i), values);
        }
        context.getCounter(ItchyCounters.STORED_VALUES_READ).increment(values.size());
        return values;
    }

    /** Writes a key's data as it comes, one cell per chunk: rows of keys with millions of values stay writable. */
    private static UserValues.ChunkSink sink(
            TaskSettings settings, byte[] row, BulkCells cells, StoredValueCombiner storedCombiner, Context context) {
        int[] chunks = {0};
        return new UserValues.ChunkSink() {
            @Override
            public void values(byte[] uncombined, byte[] uncombinedLengths) {
                byte[] concatenated = uncombined;
                byte[] lengths = uncombinedLengths;
                if (storedCombiner != null) {
                    StoredValueCombiner.Chunk combined = combine(uncombined, uncombinedLengths);
                    concatenated = combined.values();
                    lengths = combined.lengths();
                }
                int chunk = chunks[0]++;
                store(ItchyStore.MO, "v", "l", chunk, concatenated, lengths);
            }

            @Override
            public void offsets(UserValues.OffsetList offsets) {
                // The first job stores every offset; an increment only those of the appended datasets.
                ByteBuffer packedOffsets = ByteBuffer.allocate(offsets.size * Long.BYTES);
                ByteBuffer packedDatasets = ByteBuffer.allocate(offsets.size * Integer.BYTES);
                int kept = 0;
                for (int i = 0; i < offsets.size; i++) {
                    if (!settings.incremental() || settings.newDatasets().contains(offsets.datasets[i])) {
                        packedOffsets.putLong(offsets.offsets[i]);
                        packedDatasets.putInt(offsets.datasets[i]);
                        kept++;
                    }
                }
                if (kept == 0) {
                    return;
                }
                int chunk = chunks[0]++;
                store(
                        ItchyStore.QMC,
                        "o",
                        "d",
                        chunk,
                        java.util.Arrays.copyOf(packedOffsets.array(), kept * Long.BYTES),
                        java.util.Arrays.copyOf(packedDatasets.array(), kept * Integer.BYTES));
            }

            private StoredValueCombiner.Chunk combine(byte[] values, byte[] lengths) {
                try {
                    return storedCombiner.combine(values, lengths);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while combining stored values", e);
                }
            }

            /** One chunk of a key's data: two cells of one family, qualified by increment and chunk. */
            private void store(byte[] family, String first, String second, int chunk, byte[] one, byte[] two) {
                try {
                    cells.add(row, family, ItchyStore.qualifier(first, settings.generation(), chunk), one);
                    cells.add(row, family, ItchyStore.qualifier(second, settings.generation(), chunk), two);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                if (chunk == 0) {
                    context.getCounter(ItchyCounters.HBASE_ROWS_WRITTEN).increment(1);
                }
            }
        };
    }
}
