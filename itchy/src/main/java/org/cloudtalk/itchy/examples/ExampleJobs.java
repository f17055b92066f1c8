package org.cloudtalk.itchy.examples;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.cloudtalk.itchy.ItchyJob;

/**
 * The example jobs as Itchy jobs, as the tests and the benchmark ({@code benchmarks/itchy-bench}) run them: two reducers
 * each, so partitions matter.
 */
public final class ExampleJobs {
    private ExampleJobs() {}

    public static ItchyJob wordCount(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(WordCount.TokenMapper.class)
                .combiner(WordCount.SumReducer.class)
                .reducer(WordCount.SumReducer.class)
                .mapOutput(Text.class, IntWritable.class)
                .output(Text.class, IntWritable.class)
                .setMerge(WordCount.SumMerge.class)
                .reducers(2);
    }

    public static ItchyJob jobAvg(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(Sales.CategoryPriceMapper.class)
                .reducer(Sales.AverageReducer.class)
                .mapOutput(Text.class, LongWritable.class)
                .output(Text.class, DoubleWritable.class)
                .reducers(2);
    }

    public static ItchyJob jobSum(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(Sales.CategoryPriceMapper.class)
                .combiner(Sales.SumReducer.class)
                .reducer(Sales.SumReducer.class)
                .mapOutput(Text.class, LongWritable.class)
                .output(Text.class, LongWritable.class)
                .setMerge(Sales.SumMerge.class)
                .reducers(2);
    }

    public static ItchyJob job1(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(Lineitem.Job1Mapper.class)
                .combiner(Lineitem.Job1Combiner.class)
                .reducer(Lineitem.Job1Reducer.class)
                .mapOutput(LongWritable.class, LongPairWritable.class)
                .output(LongWritable.class, DoubleWritable.class)
                .reducers(2);
    }

    public static ItchyJob job2(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(Lineitem.Job2Mapper.class)
                .reducer(Lineitem.Job2Reducer.class)
                .mapOutput(Text.class, Text.class)
                .output(Text.class, Text.class)
                .reducers(2);
    }
}
