package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * Over TagMapper's records: each tag's value weighted by the record's file (1 to 7, from its name), which it reads
 * from its split once, in setup(), as mappers that treat their input files differently do. Outside its records, in
 * setup() and cleanup(), it insists on seeing no current record, as a task of its own over a text file shows none.
 */
public final class FileTagMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final Text key = new Text();
    private final LongWritable value = new LongWritable();
    private long weight;

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
        noCurrentRecord(context, "setup()");
        weight = 1
                + Math.floorMod(
                        ((FileSplit) context.getInputSplit())
                                .getPath()
                                .getName()
                                .hashCode(),
                        7);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        String[] fields = line.toString().split(",");
        value.set(weight * Long.parseLong(fields[1].trim()));
        for (String tag : fields[0].split(";")) {
            key.set(tag);
            context.write(key, value);
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        noCurrentRecord(context, "cleanup()");
    }

    private static void noCurrentRecord(Context context, String where) throws IOException, InterruptedException {
        if (context.getCurrentKey() != null || context.getCurrentValue() != null) {
            throw new IOException(
                    where + " saw a current record: " + context.getCurrentKey() + " " + context.getCurrentValue());
        }
    }
}
