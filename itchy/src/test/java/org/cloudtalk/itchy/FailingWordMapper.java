package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.cloudtalk.itchy.examples.WordCount;

/** WordCount's mapper that can be made to fail (the local job runner shares this JVM), to kill an increment midway. */
public final class FailingWordMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    static final AtomicBoolean FAIL = new AtomicBoolean();
    private final WordCount.TokenMapper delegate = new WordCount.TokenMapper();

    @Override
    public void run(Context context) throws IOException, InterruptedException {
        if (FAIL.get()) {
            throw new IOException("injected failure");
        }
        delegate.run(context);
    }
}
