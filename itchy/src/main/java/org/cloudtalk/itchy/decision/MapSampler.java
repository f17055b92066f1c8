package org.cloudtalk.itchy.decision;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
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
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.cloudtalk.itchy.ItchyException;
import org.cloudtalk.itchy.technique.Run;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's mapper in this JVM over the first records of the first input file before a first job: to sample the
 * decision model's inputs (timing it and measuring what it emits), and to catch a mapper that does not give the same
 * output for the same records — every technique rests on re-running or re-using map output (§5.5).
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class MapSampler {
    private MapSampler() {}

    /** What one run over the sample showed, the distinct keys it emitted, and a digest of everything, in order. */
    record Run(DecisionModel.Sample sample, List<byte[]> keys, String outputDigest) {}

    /** What the sample showed, and the distinct intermediate keys (serialized) it emitted. */
    public record Sampled(DecisionModel.Sample sample, List<byte[]> keys) {}

    /**
     * Maps the sample twice, each time with a new mapper instance, and refuses a mapper whose outputs differ (random
     * numbers, clocks, state kept across instances): its incremental results could not equal a recompute.
     */
    public static Sampled sampleDeterministic(
            Configuration conf, Class<? extends Mapper> mapperClass, Path file, int records)
            throws IOException, InterruptedException {
        Run first = run(conf, mapperClass, file, records);
        Run second = run(conf, mapperClass, file, records);
        if (!first.outputDigest().equals(second.outputDigest())) {
            throw new ItchyException("mapper " + mapperClass.getName() + " emitted different output for the same "
                    + first.sample().records() + " records of " + file + " in two runs: it looks non-deterministic "
                    + "(random numbers, clocks, state shared across instances?), and Itchy's increments would not "
                    + "equal a recompute; make it deterministic or run with itchy.mode=off");
        }
        return new Sampled(first.sample(), first.keys());
    }

    private static Run run(Configuration conf, Class<? extends Mapper> mapperClass, Path file, int records)
            throws IOException, InterruptedException {
        FileSystem fs = file.getFileSystem(conf);
        long length = fs.getFileStatus(file).getLen();
        FileSplit split = new FileSplit(file, 0, length, null);
        TaskAttemptContext task = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        // The job's own record reader: the sample sees the records the job will see (delimiter, compression, BOM).
        RecordReader<LongWritable, Text> lines = new TextInputFormat().createRecordReader(split, task);
        lines.initialize(split, task);
        long[] counts = new long[3]; // records, outputs, value bytes
        RecordReader<LongWritable, Text> limited = new RecordReader<>() {
            @Override
            public void initialize(InputSplit s, TaskAttemptContext c) {}

            @Override
            public boolean nextKeyValue() throws IOException, InterruptedException {
                if (counts[0] >= records || !lines.nextKeyValue()) {
                    return false;
                }
                counts[0]++;
                return true;
            }

            @Override
            public LongWritable getCurrentKey() throws IOException, InterruptedException {
                return lines.getCurrentKey();
            }

            @Override
            public Text getCurrentValue() throws IOException, InterruptedException {
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
        MessageDigest digest = sha256();
        Set<ByteBuffer> keys = new HashSet<>();
        RecordWriter measuring = new RecordWriter<Object, Object>() {
            @Override
            public void write(Object key, Object value) throws IOException {
                counts[1]++;
                buffer.reset();
                ((Writable) key).write(buffer);
                int keyLength = buffer.getLength();
                ((Writable) value).write(buffer);
                counts[2] += buffer.getLength() - keyLength;
                digest.update(buffer.getData(), 0, buffer.getLength());
                keys.add(ByteBuffer.wrap(Arrays.copyOf(buffer.getData(), keyLength)));
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
        DecisionModel.Sample sample = new DecisionModel.Sample(
                nanos / 1e6 / sampled,
                counts[1] == 0 ? 0 : (double) counts[2] / counts[1],
                (double) counts[1] / sampled,
                counts[0],
                keys.size());
        List<byte[]> distinct = keys.stream().map(ByteBuffer::array).toList();
        return new Run(sample, distinct, HexFormat.of().formatHex(digest.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
