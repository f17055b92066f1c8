package org.cloudtalk.itchy;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * Samples the decision model's inputs at the start of the first job: runs the user's mapper over the first records of
 * the first input file in this JVM, timing it and measuring what it emits.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class MapSampler {
    private MapSampler() {}

    static DecisionModel.Sample sample(Configuration conf, Class<? extends Mapper> mapperClass, Path file, int records)
            throws IOException, InterruptedException {
        FileSystem fs = file.getFileSystem(conf);
        long length = fs.getFileStatus(file).getLen();
        FileSplit split = new FileSplit(file, 0, length, null);
        TaskAttemptContext task = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        LineRecordReader lines = new LineRecordReader();
        lines.initialize(split, task);
        long[] counts = new long[3]; // records, outputs, value bytes
        RecordReader<LongWritable, Text> limited = new RecordReader<>() {
            @Override
            public void initialize(InputSplit s, TaskAttemptContext c) {}

            @Override
            public boolean nextKeyValue() throws IOException {
                if (counts[0] >= records || !lines.nextKeyValue()) {
                    return false;
                }
                counts[0]++;
                return true;
            }

            @Override
            public LongWritable getCurrentKey() {
                return lines.getCurrentKey();
            }

            @Override
            public Text getCurrentValue() {
                return lines.getCurrentValue();
            }

            @Override
            public float getProgress() {
                return 0;
            }

            @Override
            public void close() throws IOException {
                lines.close();
            }
        };
        DataOutputBuffer buffer = new DataOutputBuffer();
        RecordWriter measuring = new RecordWriter<Object, Object>() {
            @Override
            public void write(Object key, Object value) throws IOException {
                counts[1]++;
                buffer.reset();
                ((Writable) value).write(buffer);
                counts[2] += buffer.getLength();
            }

            @Override
            public void close(TaskAttemptContext c) {}
        };
        MapContextImpl mapContext = new MapContextImpl(
                conf, new TaskAttemptID(), limited, measuring, null, new TaskAttemptContextImpl.DummyReporter(), split);
        Mapper mapper = (Mapper) Writables.newInstance(mapperClass, conf);
        long start = System.nanoTime();
        mapper.run(new WrappedMapper().getMapContext(mapContext));
        long nanos = System.nanoTime() - start;
        limited.close();
        long sampled = Math.max(1, counts[0]);
        return new DecisionModel.Sample(
                nanos / 1e6 / sampled,
                counts[1] == 0 ? 0 : (double) counts[2] / counts[1],
                (double) counts[1] / sampled,
                counts[0]);
    }
}
