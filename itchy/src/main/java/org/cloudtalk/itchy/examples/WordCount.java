package org.cloudtalk.itchy.examples;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.MergeFunction;

/** WordCount: several keys per record (multiple emits), a combiner, and a merge function (sum). */
public final class WordCount {
    private WordCount() {}

    public static final class TokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
        private static final IntWritable ONE = new IntWritable(1);
        private final Text word = new Text();

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            for (String token :
                    line.toString().toLowerCase(java.util.Locale.ROOT).split("[^a-z]+")) {
                if (!token.isEmpty()) {
                    word.set(token);
                    context.write(word, ONE);
                }
            }
        }
    }

    public static final class SumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
        private final IntWritable sum = new IntWritable();

        @Override
        protected void reduce(Text word, Iterable<IntWritable> counts, Context context)
                throws IOException, InterruptedException {
            int total = 0;
            for (IntWritable count : counts) {
                total += count.get();
            }
            sum.set(total);
            context.write(word, sum);
        }
    }

    public static final class SumMerge implements MergeFunction<Text, IntWritable> {
        @Override
        public IntWritable merge(Text word, IntWritable base, IntWritable delta) {
            return new IntWritable(base.get() + delta.get());
        }
    }
}
