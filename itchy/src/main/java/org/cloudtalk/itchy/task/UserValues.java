package org.cloudtalk.itchy.task;

import java.io.ByteArrayOutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.technique.Writables;

/**
 * One key's values as the user's reducer or combiner expects them: first any values stored by earlier runs (MO),
 * then the shuffled values — QMC's {@link ItchyValue}s deserialized into one reused instance as Hadoop does, or the
 * user's own values as the shuffle hands them. While iterating it collects what Itchy must persist for the key: the
 * piggy-backed offsets (QMC) or the new values' bytes (MO).
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class UserValues implements Iterable<Object> {
    private final Iterator<?> shuffled;
    private final List<byte[]> stored;
    private final Writable reused;
    private final Writables writables;
    private final boolean keepValues;
    private final ByteArrayOutputStream newValues = new ByteArrayOutputStream();
    private final java.io.DataOutputStream newLengths;
    private final ByteArrayOutputStream lengthBytes = new ByteArrayOutputStream();
    private final OffsetList offsets = new OffsetList();
    private Iterator<Object> iterator;

    /** The (dataset, offset) pairs of one key, kept compact. */
    static final class OffsetList {
        int[] datasets = new int[8];
        long[] offsets = new long[8];
        int size;

        void add(int dataset, long offset) {
            if (size == offsets.length) {
                datasets = java.util.Arrays.copyOf(datasets, size * 2);
                offsets = java.util.Arrays.copyOf(offsets, size * 2);
            }
            datasets[size] = dataset;
            offsets[size++] = offset;
        }
    }

    /** Receives what must be persisted, in bounded chunks, while the values are read. */
    interface ChunkSink {
        void values(byte[] concatenated, byte[] lengths);

        void offsets(OffsetList offsets);
    }

    private final ChunkSink sink;
    private final int chunkBytes;

    /**
     * What the keys of one task share: the value instance handed to the user's code (Hadoop reuses one across keys
     * too), serialization buffers, the chunk size. Built once per task: a configuration lookup and a reflective
     * instantiation per key cost ~15% of a QMC first job's combining here.
     */
    static final class Factory {
        private final Writable reused;
        private final Writables writables = new Writables();
        private final int chunkBytes;

        Factory(Class<?> valueClass, Configuration conf) {
            this.reused = (Writable) Writables.newInstance(valueClass, conf);
            this.chunkBytes = conf.getInt(ItchyConf.CHUNK_BYTES, 4 << 20);
        }

        /** A key's values; {@code sink} (may be null) receives what must be persisted. */
        UserValues of(Iterable<?> shuffled, List<byte[]> stored, boolean keepValues, ChunkSink sink) {
            return new UserValues(this, shuffled, stored, keepValues, sink);
        }
    }

    private UserValues(Factory task, Iterable<?> shuffled, List<byte[]> stored, boolean keepValues, ChunkSink sink) {
        this.sink = sink;
        this.chunkBytes = task.chunkBytes;
        this.shuffled = shuffled.iterator();
        this.stored = stored;
        this.reused = task.reused;
        this.writables = task.writables;
        this.keepValues = keepValues;
        this.newLengths = new java.io.DataOutputStream(lengthBytes);
    }

    /** The same iterator on every call, as Hadoop's value iterable does (Reducer.run asks twice per key). */
    @Override
    public Iterator<Object> iterator() {
        if (iterator == null) {
            Iterator<byte[]> storedValues = stored.iterator();
            iterator = new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return storedValues.hasNext() || shuffled.hasNext();
                }

                @Override
                public Object next() {
                    if (storedValues.hasNext()) {
                        byte[] value = storedValues.next();
                        return writables.read(reused, value, 0, value.length);
                    }
                    if (!shuffled.hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return accept(shuffled.next());
                }
            };
        }
        return iterator;
    }

    /** Consumes what the user's code left unread, so that every offset and value is persisted; flushes the rest. */
    void drain() {
        while (shuffled.hasNext()) {
            accept(shuffled.next());
        }
        flush();
    }

    /** Hands buffered values and offsets to the sink, which writes them as one chunk. */
    private void flush() {
        if (sink == null) {
            return;
        }
        if (lengthBytes.size() > 0) {
            sink.values(newValues.toByteArray(), lengthBytes.toByteArray());
            newValues.reset();
            lengthBytes.reset();
        }
        if (offsets.size > 0) {
            sink.offsets(offsets);
            offsets.size = 0;
        }
    }

    /** The value to hand the user's code; its offsets and (MO) bytes are kept on the way. */
    private Object accept(Object shuffledValue) {
        if (sink != null && (newValues.size() >= chunkBytes || offsets.size * 12L >= chunkBytes)) {
            flush();
        }
        if (shuffledValue instanceof ItchyValue wrapped) {
            for (int i = 0; i < wrapped.offsetCount(); i++) {
                offsets.add(wrapped.dataset(i), wrapped.offset(i));
            }
            keep(wrapped.valueBytes(), wrapped.valueLength());
            return writables.read(reused, wrapped.valueBytes(), 0, wrapped.valueLength());
        }
        if (keepValues) {
            org.apache.hadoop.io.DataOutputBuffer serialized = writables.serialize((Writable) shuffledValue);
            keep(serialized.getData(), serialized.getLength());
        }
        return shuffledValue;
    }

    private void keep(byte[] value, int length) {
        if (keepValues) {
            newValues.write(value, 0, length);
            try {
                newLengths.writeInt(length);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    OffsetList offsets() {
        return offsets;
    }
}
