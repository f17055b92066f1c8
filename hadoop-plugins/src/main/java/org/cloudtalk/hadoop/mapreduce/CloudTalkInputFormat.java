package org.cloudtalk.hadoop.mapreduce;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.hadoop.hint.HintClient;

/**
 * Map placement by job configuration alone (§5.3, Figure 9): wraps the job's input format and drops, from each
 * split's locations, the hosts whose disks CloudTalk judges slow — never all of a split's locations — so the
 * scheduler runs those maps on a faster replica's host, or elsewhere reading remotely, instead of on the slow disk.
 * Without a usable answer the splits keep every location, exactly as the wrapped format made them.
 *
 * <p>Set {@code mapreduce.job.inputformat.class} to this class and {@value MapHintSettings#INNER_FORMAT} to the
 * format it wraps (default {@code TextInputFormat}). Records are read by the wrapped format unchanged.
 */
public final class CloudTalkInputFormat<K, V> extends InputFormat<K, V> {
    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        MapHintSettings settings = MapHintSettings.from(conf);
        List<InputSplit> splits = inner(settings, conf).getSplits(context);
        HintClient hints = HintClient.shared(
                "mapreduce", settings.hints(), "CloudTalkMapPlacement", "CloudTalk split locations for map tasks");
        return new SlowHosts(hints, settings.slowFraction()).avoid(splits);
    }

    @Override
    public RecordReader<K, V> createRecordReader(InputSplit split, TaskAttemptContext context)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        InputFormat<K, V> inner = inner(MapHintSettings.from(conf), conf);
        return inner.createRecordReader(split, context);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> InputFormat<K, V> inner(MapHintSettings settings, Configuration conf) {
        return (InputFormat<K, V>) ReflectionUtils.newInstance(settings.inner(), conf);
    }
}
