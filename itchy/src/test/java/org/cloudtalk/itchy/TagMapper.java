package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Over {@code tagA;tagB;...,value} records: the value once per tag, so one record may emit several keys. It can be made
 * to fail (the local job runner shares this JVM), to fail a run midway.
 */
public final class TagMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    static final AtomicBoolean FAIL = new AtomicBoolean();
    private final Text tag = new Text();
    private final LongWritable value = new LongWritable();

    @Override
    protected void setup(Context context) throws IOException {
        if (FAIL.get()) {
            throw new IOException("injected failure");
        }
    }

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
