package org.cloudtalk.itchy.qmc;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.technique.Writables;

/** An increment's key pass: each intermediate key of the appended records, once, serialized. */
public final class DistinctKeysReducer extends Reducer<Object, Object, BytesWritable, NullWritable> {
    private final Writables writables = new Writables();
    private final BytesWritable out = new BytesWritable();

    @Override
    protected void reduce(Object key, Iterable<Object> values, Context context)
            throws IOException, InterruptedException {
        byte[] bytes = writables.bytes((Writable) key);
        out.set(bytes, 0, bytes.length);
        context.write(out, NullWritable.get());
    }
}
