package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/** A combiner that fails as soon as it combines: it runs while the map task spills, after the mapper has finished. */
public final class FailingCombiner extends Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context) throws IOException {
        throw new IOException("combiner says no");
    }
}
