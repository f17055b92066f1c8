package org.cloudtalk.itchy.technique;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;

/** Serializes user keys and values (Writables) to bytes and back, reusing buffers. Not thread-safe. */
public final class Writables {
    private final DataOutputBuffer out = new DataOutputBuffer();
    private final DataInputBuffer in = new DataInputBuffer();

    public byte[] bytes(Writable writable) {
        out.reset();
        try {
            writable.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return java.util.Arrays.copyOf(out.getData(), out.getLength());
    }

    /** Serializes into the shared buffer; valid until the next call. */
    public DataOutputBuffer serialize(Writable writable) {
        out.reset();
        try {
            writable.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    public <T extends Writable> T read(T target, byte[] bytes, int offset, int length) {
        in.reset(bytes, offset, length);
        try {
            target.readFields(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** An instance of a class named in the configuration; callers cast to what the key promises. */
    public static Object newInstance(Class<?> type, Configuration conf) {
        return ReflectionUtils.newInstance(type, conf);
    }
}
