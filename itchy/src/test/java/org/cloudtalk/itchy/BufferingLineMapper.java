package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Each line under its first word, written two lines at a time and the rest in {@code cleanup}: in-mapper combining
 * with a bounded buffer, valid Hadoop whose output for a line is not written while that line is mapped.
 */
public final class BufferingLineMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final List<String> buffered = new ArrayList<>();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        buffered.add(line.toString());
        if (buffered.size() == 2) {
            flush(context);
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        flush(context);
    }

    private void flush(Context context) throws IOException, InterruptedException {
        for (String line : buffered) {
            context.write(new Text(line.split(" ", 2)[0]), new Text(line));
        }
        buffered.clear();
    }

    /** How many lines each first word starts. */
    public static final class CountReducer extends Reducer<Text, Text, Text, IntWritable> {
        @Override
        protected void reduce(Text word, Iterable<Text> lines, Context context)
                throws IOException, InterruptedException {
            int count = 0;
            for (Text ignored : lines) {
                count++;
            }
            context.write(word, new IntWritable(count));
        }
    }
}
