package org.cloudtalk.itchy.qmc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.LineReader;
import org.cloudtalk.itchy.technique.TaskSettings;

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
        Map<Integer, RelevantOffsets.Slice> slices = RelevantOffsets.slices(conf);
        Map<Integer, long[]> relevant = new HashMap<>();
        List<InputSplit> kept = new ArrayList<>();
        for (InputSplit split : super.getSplits(job)) {
            FileSplit fileSplit = (FileSplit) split;
            int dataset = settings.datasetOf(fileSplit.getPath());
            if (settings.newDatasets().contains(dataset)) {
                kept.add(split);
                continue;
            }
            RelevantOffsets.Slice slice = slices.get(dataset);
            if (slice == null) {
                continue;
            }
            long[] offsets = relevant.get(dataset);
            if (offsets == null) {
                offsets = RelevantOffsets.read(conf, slice);
                relevant.put(dataset, offsets);
            }
            // A compressed file that cannot be split is one split, and its offsets count uncompressed bytes.
            boolean whole = !isSplitable(job, fileSplit.getPath());
            int from = whole ? 0 : firstAtOrAfter(offsets, fileSplit.getStart());
            int to = whole ? offsets.length : firstAtOrAfter(offsets, fileSplit.getStart() + fileSplit.getLength());
            if (from < to) {
                kept.add(new OffsetSplit(fileSplit, slice.sub(from, to)));
            }
        }
        return kept;
    }

    @Override
    public RecordReader<LongWritable, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return split instanceof OffsetSplit ? new OffsetRecordReader() : super.createRecordReader(split, context);
    }

    private static int firstAtOrAfter(long[] sorted, long position) {
        int at = Arrays.binarySearch(sorted, position);
        return at >= 0 ? at : -at - 1;
    }

    /** A split of a base file that carries where its relevant offsets are, so its task reads only those. */
    public static final class OffsetSplit extends FileSplit {
        private long first;
        private int count;

        public OffsetSplit() {}

        OffsetSplit(FileSplit split, RelevantOffsets.Slice slice) throws IOException {
            super(split.getPath(), split.getStart(), split.getLength(), split.getLocations());
            this.first = slice.first();
            this.count = slice.count();
        }

        RelevantOffsets.Slice slice() {
            return new RelevantOffsets.Slice(first, count);
        }

        @Override
        public void write(DataOutput out) throws IOException {
            super.write(out);
            out.writeLong(first);
            out.writeInt(count);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            super.readFields(in);
            first = in.readLong();
            count = in.readInt();
        }
    }

    /**
     * Reads the record at each relevant offset inside the split, as the first job's {@code LineRecordReader} read it:
     * with the job's {@code textinputformat.record.delimiter}, without a UTF-8 byte order mark at the start of a file,
     * and, in a compressed file, counting offsets in uncompressed bytes. Between nearby offsets it reads forward
     * through the records in between (sequential reads are cheap); across a gap larger than {@link #MAX_SKIP} in an
     * uncompressed file it seeks. A compressed file is read forward from its start (it cannot be split either).
     */
    private static final class OffsetRecordReader extends RecordReader<LongWritable, Text> {
        private static final long MAX_SKIP = 256 * 1024;
        private static final int BUFFER = 64 * 1024;
        private Path path;
        private long[] offsets;
        private int next;
        private FSDataInputStream in;
        /** The decompressed stream of a compressed file, else null. */
        private InputStream decompressed;

        private Decompressor decompressor;
        private byte[] delimiter;
        private LineReader lines;
        private long position = -1;
        private final LongWritable key = new LongWritable();
        private final Text value = new Text();
        private final Text skipped = new Text();

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
            OffsetSplit offsetSplit = (OffsetSplit) split;
            Configuration conf = context.getConfiguration();
            offsets = RelevantOffsets.read(conf, offsetSplit.slice());
            path = offsetSplit.getPath();
            in = path.getFileSystem(conf).open(path);
            String recordDelimiter = conf.get("textinputformat.record.delimiter");
            delimiter = recordDelimiter == null ? null : recordDelimiter.getBytes(StandardCharsets.UTF_8);
            CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
            if (codec != null) {
                decompressor = CodecPool.getDecompressor(codec);
                decompressed = codec.createInputStream(in, decompressor);
                lines = reader(decompressed);
                position = 0;
            }
        }

        private LineReader reader(InputStream stream) {
            return delimiter == null ? new LineReader(stream, BUFFER) : new LineReader(stream, BUFFER, delimiter);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            if (next >= offsets.length) {
                return false;
            }
            long offset = offsets[next++];
            if (decompressed == null && (lines == null || offset < position || offset - position > MAX_SKIP)) {
                in.seek(offset);
                lines = reader(in); // a new reader: the old one's buffer holds bytes from before the seek
                position = offset;
            }
            if (offset < position) {
                throw new IOException("relevant offset " + offset + " before " + position + " in compressed " + path);
            }
            while (position < offset) {
                position += count(lines.readLine(skipped, 0)); // counted, not copied
            }
            position += count(lines.readLine(value));
            if (offset == 0) {
                skipByteOrderMark();
            }
            key.set(offset);
            return true;
        }

        /** As LineRecordReader: a UTF-8 byte order mark before a file's first record is not part of it. */
        private void skipByteOrderMark() {
            byte[] bytes = value.getBytes();
            if (value.getLength() >= 3
                    && (bytes[0] & 0xFF) == 0xEF
                    && (bytes[1] & 0xFF) == 0xBB
                    && (bytes[2] & 0xFF) == 0xBF) {
                value.set(Arrays.copyOfRange(bytes, 3, value.getLength()));
            }
        }

        private int count(int bytes) throws IOException {
            if (bytes == 0) {
                throw new IOException("relevant offset beyond the end of " + path);
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
            try {
                if (decompressed != null) {
                    decompressed.close();
                }
                if (in != null) {
                    in.close();
                }
            } finally {
                if (decompressor != null) {
                    CodecPool.returnDecompressor(decompressor);
                }
            }
        }
    }
}
