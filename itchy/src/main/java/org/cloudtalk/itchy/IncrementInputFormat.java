package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.LineReader;

/**
 * Input of a QMC increment: appended files are read whole, like TextInputFormat; base files only where a relevant
 * offset falls, and there only the records at those offsets. Splits of base files without any relevant offset are
 * never created, so they are never read (the chapter's unscheduled map tasks of wave 2).
 */
public final class IncrementInputFormat extends TextInputFormat {
    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        Configuration conf = job.getConfiguration();
        TaskSettings settings = TaskSettings.of(conf);
        Map<Integer, long[]> relevant = new HashMap<>();
        List<InputSplit> kept = new ArrayList<>();
        for (InputSplit split : super.getSplits(job)) {
            FileSplit fileSplit = (FileSplit) split;
            int dataset = settings.datasetOf(fileSplit.getPath());
            if (settings.newDatasets().contains(dataset)) {
                kept.add(split);
                continue;
            }
            long[] offsets = relevant.computeIfAbsent(dataset, id -> offsets(conf, id));
            int at = Arrays.binarySearch(offsets, fileSplit.getStart());
            int first = at >= 0 ? at : -at - 1;
            if (first < offsets.length && offsets[first] < fileSplit.getStart() + fileSplit.getLength()) {
                kept.add(split);
            }
        }
        return kept;
    }

    @Override
    public RecordReader<LongWritable, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
        TaskSettings settings = TaskSettings.of(context.getConfiguration());
        int dataset = settings.datasetOf(((FileSplit) split).getPath());
        return settings.newDatasets().contains(dataset)
                ? super.createRecordReader(split, context)
                : new OffsetRecordReader(dataset);
    }

    /** The sorted relevant offsets of a base dataset, as ItchyJob wrote them. */
    static long[] offsets(Configuration conf, int dataset) {
        Path file = new Path(conf.get(ItchyConf.RELEVANT_OFFSETS), Integer.toString(dataset));
        try {
            if (!file.getFileSystem(conf).exists(file)) {
                return new long[0];
            }
            long[] offsets = new long[16];
            int size = 0;
            try (SequenceFile.Reader reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(file))) {
                LongWritable offset = new LongWritable();
                while (reader.next(offset, NullWritable.get())) {
                    if (size == offsets.length) {
                        offsets = Arrays.copyOf(offsets, size * 2);
                    }
                    offsets[size++] = offset.get();
                }
            }
            return Arrays.copyOf(offsets, size);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Reads the line at each relevant offset inside the split. Between nearby offsets it reads forward through the
     * lines in between (sequential reads are cheap); across a gap larger than {@link #MAX_SKIP} it seeks.
     */
    private static final class OffsetRecordReader extends RecordReader<LongWritable, Text> {
        private static final long MAX_SKIP = 256 * 1024;
        private final int dataset;
        private long[] offsets;
        private int next;
        private FSDataInputStream in;
        private LineReader lines;
        private long position = -1;
        private final LongWritable key = new LongWritable();
        private final Text value = new Text();
        private final Text skipped = new Text();

        OffsetRecordReader(int dataset) {
            this.dataset = dataset;
        }

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            FileSplit fileSplit = (FileSplit) split;
            Configuration conf = context.getConfiguration();
            long start = fileSplit.getStart();
            long end = start + fileSplit.getLength();
            offsets = Arrays.stream(offsets(conf, dataset))
                    .filter(o -> o >= start && o < end)
                    .toArray();
            FileSystem fs = fileSplit.getPath().getFileSystem(conf);
            in = fs.open(fileSplit.getPath());
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (next >= offsets.length) {
                return false;
            }
            long offset = offsets[next++];
            if (lines == null || offset < position || offset - position > MAX_SKIP) {
                in.seek(offset);
                lines = new LineReader(in, 64 * 1024); // its buffer would otherwise hold bytes from before the seek
                position = offset;
            }
            while (position < offset) {
                position += count(lines.readLine(skipped));
            }
            position += count(lines.readLine(value));
            key.set(offset);
            return true;
        }

        private int count(int bytes) throws IOException {
            if (bytes == 0) {
                throw new IOException("relevant offset beyond the end of " + dataset);
            }
            return bytes;
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public Text getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return offsets.length == 0 ? 1 : (float) next / offsets.length;
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }
}
