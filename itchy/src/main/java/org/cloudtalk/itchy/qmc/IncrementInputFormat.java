package org.cloudtalk.itchy.qmc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.technique.TaskSettings;

/**
 * Input of a QMC increment: appended files are read whole, like TextInputFormat; base files only where a relevant
 * offset falls, and there only the records at those offsets. Splits of base files without any relevant offset are
 * never created, so they are never read (the chapter's unscheduled map tasks of wave 2). The relevant parts of several
 * base files share a task ({@link OffsetSplit}), about {@code itchy.qmc.task.records} records each: a small increment
 * re-reads a few records of every base file, and a task per file would cost more to run than its records to map. (The
 * split is not a {@code FileSplit}, so Hadoop's own input-bytes counter leaves out the base bytes such a task reads;
 * Itchy's {@code INPUT_BYTES_MAPPED} counts the records it maps.)
 */
public final class IncrementInputFormat extends TextInputFormat {
    private static final int DEFAULT_TASK_RECORDS = 100_000;

    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        Configuration conf = job.getConfiguration();
        TaskSettings settings = TaskSettings.of(conf);
        Map<Integer, RelevantOffsets.Slice> slices = RelevantOffsets.slices(conf);
        Map<Integer, long[]> relevant = new HashMap<>();
        List<InputSplit> kept = new ArrayList<>();
        List<OffsetSplit.Part> parts = new ArrayList<>();
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
                parts.add(new OffsetSplit.Part(fileSplit, slice.sub(from, to)));
            }
        }
        kept.addAll(OffsetSplit.group(parts, conf.getInt(ItchyConf.TASK_RECORDS, DEFAULT_TASK_RECORDS)));
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

    /**
     * The relevant records of one or more parts of base files, read by one task. The task's mapper runs the user's
     * mapper once per part, with that part as its input split ({@link #part}), as if each part were a task of its own.
     */
    public static final class OffsetSplit extends InputSplit implements Writable {
        /** A split of a base file and where its relevant offsets are. */
        record Part(Path path, long start, long length, String[] hosts, RelevantOffsets.Slice slice) {
            Part(FileSplit split, RelevantOffsets.Slice slice) throws IOException {
                this(split.getPath(), split.getStart(), split.getLength(), split.getLocations(), slice);
            }

            String firstHost() {
                return hosts.length == 0 ? "" : hosts[0];
            }
        }

        private static final int MAX_HOSTS = 3;
        private List<Part> parts = List.of();
        private String[] hosts = new String[0];
        /** The part whose record the task's reader read last (the reader and the mapper share this split). */
        private int reading;

        public OffsetSplit() {}

        private OffsetSplit(List<Part> parts) {
            this.parts = List.copyOf(parts);
            Map<String, Long> bytesByHost = new HashMap<>();
            for (Part part : parts) {
                for (String host : part.hosts()) {
                    bytesByHost.merge(host, part.length(), Long::sum);
                }
            }
            this.hosts = bytesByHost.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(MAX_HOSTS)
                    .map(Map.Entry::getKey)
                    .toArray(String[]::new);
        }

        /**
         * Splits of about {@code taskRecords} relevant records each, of even size: a part goes to the task its middle
         * record falls in when the records are cut into equal tasks, and a task that already holds {@code taskRecords}
         * takes no more. Parts are taken in the order of the host that holds them first, so that a task's parts tend
         * to sit on one host and the task can run where most of its data is.
         */
        static List<OffsetSplit> group(List<Part> parts, int taskRecords) {
            List<Part> ordered = new ArrayList<>(parts);
            ordered.sort(Comparator.comparing(Part::firstHost)
                    .thenComparing(part -> part.path().toString())
                    .thenComparingLong(Part::start));
            long total = records(ordered);
            long tasks = Math.max(1, (total + taskRecords - 1) / taskRecords);
            List<OffsetSplit> splits = new ArrayList<>();
            List<Part> group = new ArrayList<>();
            long before = 0;
            long records = 0;
            long task = 0;
            for (Part part : ordered) {
                int count = part.slice().count();
                long middle = (2 * before + count) * tasks / (2 * total);
                if (!group.isEmpty() && (middle != task || records >= taskRecords)) {
                    splits.add(new OffsetSplit(group));
                    group = new ArrayList<>();
                    records = 0;
                }
                task = middle;
                group.add(part);
                records += count;
                before += count;
            }
            if (!group.isEmpty()) {
                splits.add(new OffsetSplit(group));
            }
            return splits;
        }

        public int parts() {
            return parts.size();
        }

        /** The part {@code index} as the split a task of its own would have had. */
        public FileSplit part(int index) {
            Part part = parts.get(index);
            return new FileSplit(part.path(), part.start(), part.length(), part.hosts());
        }

        /** The index of the part the current record belongs to. */
        public int partBeingRead() {
            return reading;
        }

        Part at(int index) {
            return parts.get(index);
        }

        void reading(int index) {
            reading = index;
        }

        long records() {
            return records(parts);
        }

        private static long records(List<Part> parts) {
            return parts.stream().mapToLong(part -> part.slice().count()).sum();
        }

        @Override
        public long getLength() {
            return parts.stream().mapToLong(Part::length).sum();
        }

        @Override
        public String[] getLocations() {
            return hosts.clone();
        }

        @Override
        public void write(DataOutput out) throws IOException {
            // As FileSplit: locations only guide scheduling and are not sent to the task.
            out.writeInt(parts.size());
            for (Part part : parts) {
                Text.writeString(out, part.path().toString());
                out.writeLong(part.start());
                out.writeLong(part.length());
                out.writeLong(part.slice().first());
                out.writeInt(part.slice().count());
            }
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            int count = in.readInt();
            List<Part> read = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Path path = new Path(Text.readString(in));
                long start = in.readLong();
                long length = in.readLong();
                RelevantOffsets.Slice slice = new RelevantOffsets.Slice(in.readLong(), in.readInt());
                read.add(new Part(path, start, length, new String[0], slice));
            }
            parts = List.copyOf(read);
            hosts = new String[0];
            reading = 0;
        }

        @Override
        public String toString() {
            return parts.isEmpty()
                    ? "no parts of base files"
                    : parts.size() + " parts of base files from " + parts.get(0).path() + ":"
                            + parts.get(0).start();
        }
    }

    /** Reads the record at each relevant offset of each part ({@link RecordsAtOffsets}), part after part. */
    private static final class OffsetRecordReader extends RecordReader<LongWritable, Text> {
        private OffsetSplit split;
        private Configuration conf;
        private byte[] delimiter;
        private long records;
        private long read;
        private int part = -1;
        private long[] offsets = new long[0];
        private int next;
        private RecordsAtOffsets file;
        private final LongWritable key = new LongWritable();
        private final Text value = new Text();

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
            this.split = (OffsetSplit) split;
            conf = context.getConfiguration();
            records = this.split.records();
            String recordDelimiter = conf.get("textinputformat.record.delimiter");
            delimiter = recordDelimiter == null ? null : recordDelimiter.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            while (next >= offsets.length) {
                if (!nextPart()) {
                    return false;
                }
            }
            long offset = offsets[next++];
            file.read(offset, value);
            read++;
            key.set(offset);
            return true;
        }

        /** Moves on to the next part; false after the last. */
        private boolean nextPart() throws IOException {
            close();
            if (++part >= split.parts()) {
                return false;
            }
            OffsetSplit.Part current = split.at(part);
            offsets = RelevantOffsets.read(conf, current.slice());
            next = 0;
            file = new RecordsAtOffsets(conf, current.path(), delimiter);
            split.reading(part);
            return true;
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
            return records == 0 ? 1 : (float) read / records;
        }

        @Override
        public void close() throws IOException {
            if (file != null) {
                file.close();
                file = null;
            }
        }
    }
}
