package org.cloudtalk.itchy.examples;

import java.io.IOException;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.MergeFunction;

/**
 * The chapter's running example (§5.1) over {@code id,category,price} lines: JobAvg ({@code SELECT category,
 * AVG(price)}: Recompute class, no merge possible) and JobSum ({@code SUM(price)}: Merge class).
 */
public final class Sales {
    private Sales() {}

    public static final class CategoryPriceMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
        private final Text category = new Text();
        private final LongWritable price = new LongWritable();

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            String[] fields = line.toString().split(",");
            if (fields.length == 3) {
                category.set(fields[1]);
                price.set(Long.parseLong(fields[2]));
                context.write(category, price);
            }
        }
    }

    public static final class AverageReducer extends Reducer<Text, LongWritable, Text, DoubleWritable> {
        @Override
        protected void reduce(Text category, Iterable<LongWritable> prices, Context context)
                throws IOException, InterruptedException {
            context.write(category, new DoubleWritable(average(prices)));
        }
    }

    /** The average of a non-empty group's prices. */
    public static double average(Iterable<LongWritable> prices) {
        long sum = 0;
        long count = 0;
        for (LongWritable price : prices) {
            sum += price.get();
            count++;
        }
        return (double) sum / count;
    }

    public static final class SumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
        @Override
        protected void reduce(Text category, Iterable<LongWritable> prices, Context context)
                throws IOException, InterruptedException {
            long sum = 0;
            for (LongWritable price : prices) {
                sum += price.get();
            }
            context.write(category, new LongWritable(sum));
        }
    }

    public static final class SumMerge implements MergeFunction<Text, LongWritable> {
        @Override
        public LongWritable merge(Text category, LongWritable base, LongWritable delta) {
            return new LongWritable(base.get() + delta.get());
        }
    }
}
