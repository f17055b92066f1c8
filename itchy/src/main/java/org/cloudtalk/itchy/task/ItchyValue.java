package org.cloudtalk.itchy.task;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * What travels through the shuffle in place of the user's map output value: the value's serialized bytes and, for
 * QMC, the (dataset, offset) of the input records it came from — piggy-backed so the reducer can store all offsets of
 * a key in one write (§5.6.2) instead of one HBase write per map record.
 */
public final class ItchyValue implements Writable {
    private byte[] value = new byte[0];
    private int valueLength;
    private int[] datasets = new int[0];
    private long[] offsets = new long[0];
    private int offsetCount;

    public void set(byte[] bytes, int length) {
        this.value = bytes;
        this.valueLength = length;
        this.offsetCount = 0;
    }

    public void addOffset(int dataset, long offset) {
        if (offsetCount == offsets.length) {
            int capacity = Math.max(4, offsetCount * 2);
            offsets = Arrays.copyOf(offsets, capacity);
            datasets = Arrays.copyOf(datasets, capacity);
        }
        datasets[offsetCount] = dataset;
        offsets[offsetCount++] = offset;
    }

    public byte[] valueBytes() {
        return value;
    }

    public int valueLength() {
        return valueLength;
    }

    public int offsetCount() {
        return offsetCount;
    }

    public int dataset(int i) {
        return datasets[i];
    }

    public long offset(int i) {
        return offsets[i];
    }

    @Override
    public void write(DataOutput out) throws IOException {
        WritableUtils.writeVInt(out, valueLength);
        out.write(value, 0, valueLength);
        WritableUtils.writeVInt(out, offsetCount);
        for (int i = 0; i < offsetCount; i++) {
            WritableUtils.writeVInt(out, datasets[i]);
            WritableUtils.writeVLong(out, offsets[i]);
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        valueLength = WritableUtils.readVInt(in);
        if (value.length < valueLength) {
            value = new byte[valueLength];
        }
        in.readFully(value, 0, valueLength);
        offsetCount = 0;
        int count = WritableUtils.readVInt(in);
        for (int i = 0; i < count; i++) {
            addOffset(WritableUtils.readVInt(in), WritableUtils.readVLong(in));
        }
    }
}
