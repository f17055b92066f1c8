package org.cloudtalk.itchy.examples;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * TPC-H Q1-like jobs (§5.7) over lineitem-like rows
 * {@code orderkey|partkey|quantity|extendedprice|discount|tax|returnflag|linestatus|shipdate|shipinstruct|shipmode|comment}.
 * Job1 groups by (returnflag, linestatus) with a 16-byte value (quantity, price); Job2 carries a wide value of several
 * text attributes (~100 bytes) and counts distinct ship modes, as the chapter's wide variant does.
 */
public final class Lineitem {
    private Lineitem() {}

    public static final class Job1Mapper extends Mapper<LongWritable, Text, Text, LongPairWritable> {
        private final Text group = new Text();

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            String[] f = line.toString().split("\\|");
            group.set(f[6] + "|" + f[7]);
            context.write(group, new LongPairWritable(Long.parseLong(f[2]), Long.parseLong(f[3])));
        }
    }

    public static final class Job1Reducer extends Reducer<Text, LongPairWritable, Text, Text> {
        @Override
        protected void reduce(Text group, Iterable<LongPairWritable> rows, Context context)
                throws IOException, InterruptedException {
            long quantity = 0;
            long price = 0;
            long count = 0;
            for (LongPairWritable row : rows) {
                quantity += row.first();
                price += row.second();
                count++;
            }
            context.write(
                    group,
                    new Text("sum_qty=" + quantity + " sum_price=" + price + " count=" + count + " avg_qty="
                            + String.format(java.util.Locale.ROOT, "%.4f", (double) quantity / count)));
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
