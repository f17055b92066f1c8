package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/** Over {@code tagA;tagB;...,value} records: the value once per tag, so one record may emit several keys. */
public final class TagMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final Text tag = new Text();
    private final LongWritable value = new LongWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        String[] fields = line.toString().split(",");
        value.set(Long.parseLong(fields[1].trim()));
        for (String name : fields[0].split(";")) {
            tag.set(name);
            context.write(tag, value);
        }
    }
}
