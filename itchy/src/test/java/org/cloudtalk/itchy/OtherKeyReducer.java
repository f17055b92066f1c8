package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * A sum that writes under its key only when the sum is even, and always under the key with '#' appended: an earlier
 * record under the key reduced may have to disappear, and the records under the other keys are Itchy's to track.
 */
public final class OtherKeyReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
            throws IOException, InterruptedException {
        long sum = 0;
        for (LongWritable value : values) {
            sum += value.get();
        }
        if (sum % 2 == 0) {
            context.write(key, new LongWritable(sum));
        }
        context.write(new Text(key + "#"), new LongWritable(sum));
    }
}
