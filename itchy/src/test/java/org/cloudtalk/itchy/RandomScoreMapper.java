package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/** A mapper whose output depends on a random draw: a recompute would not reproduce it, so Itchy must refuse it. */
public final class RandomScoreMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text category = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        category.set(line.toString().split(",")[1]);
        context.write(category, new IntWritable(ThreadLocalRandom.current().nextInt(100)));
    }
}
