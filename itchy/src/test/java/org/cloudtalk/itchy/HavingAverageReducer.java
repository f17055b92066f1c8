package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.examples.Sales;

/** {@code SELECT key, AVG(value) GROUP BY key HAVING AVG(value) >= 500}: a key may stop having an output. */
public final class HavingAverageReducer extends Reducer<Text, LongWritable, Text, DoubleWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
            throws IOException, InterruptedException {
        double average = Sales.average(values);
        if (average >= 500) {
            context.write(key, new DoubleWritable(average));
        }
    }
}
