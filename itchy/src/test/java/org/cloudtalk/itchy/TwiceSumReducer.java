package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.cloudtalk.itchy.examples.Sales;

/** Sales' sum reducer writing each key's record twice: an output with several records per key. */
public final class TwiceSumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        new Sales.SumReducer().run(new WrappedReducer<Text, LongWritable, Text, LongWritable>().new Context(context) {
            @Override
            public void write(Text key, LongWritable value) throws IOException, InterruptedException {
                context.write(key, value);
                context.write(key, value);
            }
        });
    }
}
