package org.cloudtalk.itchy.mo;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.cloudtalk.itchy.technique.Writables;

/**
 * MO with a combiner: before a key's new values are stored, the user's combiner folds them into what it emits —
 * usually one value. By the combiner's contract (Hadoop may apply it to any subset of a key's values, any number of
 * times) that output is valid reducer input in place of the values, so an increment hands the reducer the same
 * result for a fraction of the storage and of the reading. The chapter (§5.9) stores the value list instead.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class StoredValueCombiner {
    /** The values to store for one chunk: concatenated, and their lengths as ints (the MO cell layout). */
    public record Chunk(byte[] values, byte[] lengths) {}

    private final Reducer combiner;
    private final Reducer.Context reduceContext;
    private final Class<?> valueClass;
    private final Configuration conf;
    private final Writables writables = new Writables();

    public StoredValueCombiner(
            Configuration conf, Class<?> combinerClass, Class<?> valueClass, Reducer.Context reduceContext) {
        this.conf = conf;
        this.combiner = (Reducer) Writables.newInstance(combinerClass, conf);
        this.reduceContext = reduceContext;
        this.valueClass = valueClass;
    }

    /** Combines the current key's values of one chunk; a single value is stored as it is. */
    public Chunk combine(byte[] concatenated, byte[] lengths) throws IOException, InterruptedException {
        List<byte[]> serialized = new ArrayList<>();
        split(concatenated, lengths, serialized);
        if (serialized.size() < 2) {
            return new Chunk(concatenated, lengths);
        }
        List<Object> values = new ArrayList<>(serialized.size());
        for (byte[] value : serialized) {
            // Fresh instances: a combiner may keep references to the values it was given.
            values.add(writables.read((Writable) Writables.newInstance(valueClass, conf), value, 0, value.length));
        }
        ByteArrayOutputStream combined = new ByteArrayOutputStream();
        ByteArrayOutputStream combinedLengths = new ByteArrayOutputStream();
        DataOutputStream lengthsOut = new DataOutputStream(combinedLengths);
        Reducer.Context oneKey = new WrappedReducer().new Context(reduceContext) {
            private boolean visited;

            @Override
            public boolean nextKey() {
                boolean first = !visited;
                visited = true;
                return first;
            }

            @Override
            public Object getCurrentKey() throws IOException, InterruptedException {
                return reduceContext.getCurrentKey();
            }

            @Override
            public Iterable getValues() {
                return values;
            }

            @Override
            public void write(Object key, Object value) throws IOException {
                DataOutputBuffer bytes = writables.serialize((Writable) value);
                combined.write(bytes.getData(), 0, bytes.getLength());
                lengthsOut.writeInt(bytes.getLength());
            }
        };
        combiner.run(oneKey);
        return new Chunk(combined.toByteArray(), combinedLengths.toByteArray());
    }

    /** Splits concatenated values by their lengths (the MO layout: {@code v<n>} and {@code l<n>}). */
    public static void split(byte[] values, byte[] lengths, List<byte[]> into) {
        java.nio.ByteBuffer sizes = java.nio.ByteBuffer.wrap(lengths);
        int at = 0;
        while (sizes.hasRemaining()) {
            int length = sizes.getInt();
            into.add(java.util.Arrays.copyOfRange(values, at, at + length));
            at += length;
        }
    }
}
