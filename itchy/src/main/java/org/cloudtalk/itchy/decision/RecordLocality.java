package org.cloudtalk.itchy.decision;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
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
import org.cloudtalk.itchy.technique.Writables;

/**
 * Whether a mapper's output for a record is its own: written while that record is mapped, and the same as a new
 * mapper instance writes for that record alone. QMC rests on it — an increment re-maps single base records by their
 * offsets — and a mapper that buffers records and writes them later (in-mapper combining), or writes in
 * {@code setup} or {@code cleanup}, breaks it: QMC would re-create none of what such a mapper wrote for earlier
 * records. Checked on the first records of a file, each mapped once in one run and once alone.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class RecordLocality {
    private RecordLocality() {}

    /** A record as the job's reader gives it: its offset and a copy of its line. */
    private record Line(long offset, Text text) {}

    /** @return why the mapper's output is not record by record, or empty if the sample shows none */
    public static Optional<String> problem(
            Configuration conf, Class<? extends Mapper> mapperClass, Path file, int records)
            throws IOException, InterruptedException {
        long length = file.getFileSystem(conf).getFileStatus(file).getLen();
        FileSplit split = new FileSplit(file, 0, length, null);
        List<Line> lines = read(conf, split, records);
        // Index 0: written before the first record (setup); i + 1: while record i was mapped; last: after the last.
        List<List<byte[]>> together = map(conf, mapperClass, split, lines);
        if (!together.get(0).isEmpty() || !together.get(lines.size() + 1).isEmpty()) {
            return Optional.of("mapper " + mapperClass.getName() + " writes output in setup() or cleanup(), not while"
                    + " mapping the record it comes from");
        }
        for (int i = 0; i < lines.size(); i++) {
            List<List<byte[]>> alone = map(conf, mapperClass, split, List.of(lines.get(i)));
            List<byte[]> all = new ArrayList<>();
            alone.forEach(all::addAll);
            if (!same(all, together.get(i + 1))) {
                return Optional.of("mapper " + mapperClass.getName() + " wrote other output for the record at offset "
                        + lines.get(i).offset() + " of " + file + " when mapping it alone than when mapping it after"
                        + " the records before it (does it buffer records and write them later?)");
            }
        }
        return Optional.empty();
    }

    private static List<Line> read(Configuration conf, FileSplit split, int records)
            throws IOException, InterruptedException {
        TaskAttemptContext task = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        List<Line> lines = new ArrayList<>();
        try (RecordReader<LongWritable, Text> reader = new TextInputFormat().createRecordReader(split, task)) {
            reader.initialize(split, task);
            while (lines.size() < records && reader.nextKeyValue()) {
                lines.add(new Line(reader.getCurrentKey().get(), new Text(reader.getCurrentValue())));
            }
        }
        return lines;
    }

    /** Runs a new mapper over {@code lines}; what it wrote, by when (see {@link #problem}). */
    private static List<List<byte[]>> map(
            Configuration conf, Class<? extends Mapper> mapperClass, FileSplit split, List<Line> lines)
            throws IOException, InterruptedException {
        List<List<byte[]>> written = new ArrayList<>();
        for (int i = 0; i < lines.size() + 2; i++) {
            written.add(new ArrayList<>());
        }
        int[] next = {0};
        LongWritable key = new LongWritable();
        Text value = new Text();
        RecordReader<LongWritable, Text> reader = new RecordReader<>() {
            @Override
            public void initialize(InputSplit s, TaskAttemptContext c) {}

            @Override
            public boolean nextKeyValue() {
                if (next[0] < lines.size()) {
                    key.set(lines.get(next[0]).offset());
                    value.set(lines.get(next[0]).text());
                }
                next[0] = Math.min(next[0] + 1, lines.size() + 1);
                return next[0] <= lines.size();
            }

            // None before the first record and after the last, as a LineRecordReader: a mapper may look in setup()
            // and cleanup().
            @Override
            public LongWritable getCurrentKey() {
                return mapping() ? key : null;
            }

            @Override
            public Text getCurrentValue() {
                return mapping() ? value : null;
            }

            private boolean mapping() {
                return next[0] >= 1 && next[0] <= lines.size();
            }

            @Override
            public float getProgress() {
                return 0;
            }

            @Override
            public void close() {}
        };
        DataOutputBuffer buffer = new DataOutputBuffer();
        RecordWriter recording = new RecordWriter<Object, Object>() {
            @Override
            public void write(Object k, Object v) throws IOException {
                buffer.reset();
                ((Writable) k).write(buffer);
                ((Writable) v).write(buffer);
                written.get(next[0]).add(Arrays.copyOf(buffer.getData(), buffer.getLength()));
            }

            @Override
            public void close(TaskAttemptContext c) {}
        };
        MapContextImpl mapContext = new MapContextImpl(
                conf, new TaskAttemptID(), reader, recording, null, new TaskAttemptContextImpl.DummyReporter(), split);
        Mapper mapper = (Mapper) Writables.newInstance(mapperClass, conf);
        mapper.run(new WrappedMapper().getMapContext(mapContext));
        return written;
    }

    private static boolean same(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
