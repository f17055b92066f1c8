package org.cloudtalk.itchy.examples;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** Two longs: 16 bytes on the wire, as large as a QMC entry (Job1's intermediate value in Table 5.2). */
public final class LongPairWritable implements Writable {
    private long first;
    private long second;

    public LongPairWritable() {}

    public LongPairWritable(long first, long second) {
        this.first = first;
        this.second = second;
    }

    public long first() {
        return first;
    }

    public long second() {
        return second;
    }

    /** The pairs added up element-wise: (sum of firsts, sum of seconds). */
    public static LongPairWritable sum(Iterable<LongPairWritable> pairs) {
        long first = 0;
        long second = 0;
        for (LongPairWritable pair : pairs) {
            first += pair.first;
            second += pair.second;
        }
        return new LongPairWritable(first, second);
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeLong(first);
        out.writeLong(second);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        first = in.readLong();
        second = in.readLong();
    }
}
