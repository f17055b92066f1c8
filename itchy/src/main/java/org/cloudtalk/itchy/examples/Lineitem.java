package org.cloudtalk.itchy.examples;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.io.DoubleWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The chapter's jobs over lineitem-like rows (§5.7)
 * {@code orderkey|partkey|quantity|extendedprice|discount|tax|returnflag|linestatus|shipdate|shipinstruct|shipmode|comment}.
 * Job1 is {@code SELECT partkey, AVG(extendedprice) GROUP BY partkey} with a 16-byte value and a combiner; Job2 is
 * TPC-H Q1-like: a selection, then per (returnflag, linestatus) aggregates over a wide value of several attributes
 * (~75 bytes), including distinct counts.
 */
public final class Lineitem {
    private Lineitem() {}

    /** Job1's map: partkey -> (extendedprice, 1). */
    public static final class Job1Mapper extends Mapper<LongWritable, Text, LongWritable, LongPairWritable> {
        private final LongWritable part = new LongWritable();

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            String[] f = line.toString().split("\\|", 5);
            part.set(Long.parseLong(f[1]));
            context.write(part, new LongPairWritable(Long.parseLong(f[3]), 1));
        }
    }

    /** Job1's combiner: adds up (price sum, row count) pairs, so an average survives partial aggregation (§5.9). */
    public static final class Job1Combiner
            extends Reducer<LongWritable, LongPairWritable, LongWritable, LongPairWritable> {
        @Override
        protected void reduce(LongWritable part, Iterable<LongPairWritable> sums, Context context)
                throws IOException, InterruptedException {
            context.write(part, LongPairWritable.sum(sums));
        }
    }

    /** Job1's reduce: AVG(extendedprice) per partkey. */
    public static final class Job1Reducer
            extends Reducer<LongWritable, LongPairWritable, LongWritable, DoubleWritable> {
        @Override
        protected void reduce(LongWritable part, Iterable<LongPairWritable> sums, Context context)
                throws IOException, InterruptedException {
            LongPairWritable total = LongPairWritable.sum(sums);
            context.write(part, new DoubleWritable((double) total.first() / total.second()));
        }
    }

    public static final class Job2Mapper extends Mapper<LongWritable, Text, Text, Text> {
        private final Text group = new Text();
        private final Text wide = new Text();

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            String[] f = line.toString().split("\\|");
            if (f[4].compareTo("0.09") > 0) {
                return; // a selection predicate: not every row produces intermediate data (selectivity < 1)
            }
            group.set(f[6] + "|" + f[7]);
            wide.set(f[2] + "|" + f[3] + "|" + f[8] + "|" + f[9] + "|" + f[10] + "|" + f[11]);
            context.write(group, wide);
        }
    }

    public static final class Job2Reducer extends Reducer<Text, Text, Text, Text> {
        @Override
        protected void reduce(Text group, Iterable<Text> rows, Context context)
                throws IOException, InterruptedException {
            Set<String> modes = new HashSet<>();
            Set<String> instructions = new HashSet<>();
            long quantity = 0;
            long count = 0;
            for (Text row : rows) {
                String[] f = row.toString().split("\\|");
                quantity += Long.parseLong(f[0]);
                instructions.add(f[3]);
                modes.add(f[4]);
                count++;
            }
            context.write(
                    group,
                    new Text("sum_qty=" + quantity + " count=" + count + " distinct_shipmode=" + modes.size()
                            + " distinct_shipinstruct=" + instructions.size()));
        }
    }
}
