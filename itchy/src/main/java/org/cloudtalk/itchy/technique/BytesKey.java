package org.cloudtalk.itchy.technique;

import java.util.Arrays;

/** Byte-array key with value equality, for sets of serialized intermediate keys. */
public record BytesKey(byte[] bytes) {
    public BytesKey(byte[] data, int length) {
        this(Arrays.copyOf(data, length));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BytesKey that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}
