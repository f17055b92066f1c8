package org.cloudtalk.itchy.task;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.ItchyCounters;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.MergeFunction;
import org.cloudtalk.itchy.store.BulkCells;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.technique.TaskSettings;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Job output as SequenceFiles, so that a record can be read back at its offset. For Merge-class jobs it records where
 * each key's record is (QMC_out: output, partition, position), and on an increment merges each new record with the
 * key's latest record, read at that position, through the user's merge function (§5.6.4).
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyOutputFormat extends FileOutputFormat<Object, Object> {
    public static String partFile(int partition) {
        return String.format("part-r-%05d", partition);
    }

    /**
     * The compression the job's output gets: what SequenceFileOutputFormat gives the same job (none unless output
     * compression is enabled), not SequenceFile's own default (every record through zlib). Block compression becomes
     * record compression where records are read back at their positions (Merge).
     */
    public static SequenceFile.Writer.Option compression(JobContext job, boolean readAtPositions) {
        if (!getCompressOutput(job)) {
            return SequenceFile.Writer.compression(CompressionType.NONE);
        }
        CompressionType type = SequenceFileOutputFormat.getOutputCompressionType(job);
        if (readAtPositions && type == CompressionType.BLOCK) {
            type = CompressionType.RECORD;
        }
        return SequenceFile.Writer.compression(
                type,
                ReflectionUtils.newInstance(getOutputCompressorClass(job, DefaultCodec.class), job.getConfiguration()));
    }

    @Override
    public RecordWriter<Object, Object> getRecordWriter(TaskAttemptContext context) throws IOException {
        Configuration conf = context.getConfiguration();
        TaskSettings settings = TaskSettings.of(conf);
        Path file = getDefaultWorkFile(context, "");
        SequenceFile.Writer writer = SequenceFile.createWriter(
                conf,
                SequenceFile.Writer.file(file),
                SequenceFile.Writer.keyClass(context.getOutputKeyClass()),
                SequenceFile.Writer.valueClass(context.getOutputValueClass()),
                compression(context, settings.mode() == ItchyMode.MERGE));
        if (settings.mode() != ItchyMode.MERGE) {
            return new RecordWriter<>() {
                @Override
                public void write(Object key, Object value) throws IOException {
                    writer.append(key, value);
                }

                @Override
                public void close(TaskAttemptContext ignored) throws IOException {
                    writer.close();
                }
            };
        }
        return new MergingWriter(conf, settings, writer, file.getParent(), context);
    }

    private static final class MergingWriter extends RecordWriter<Object, Object> {
        private final Configuration conf;
        private final TaskSettings settings;
        private final SequenceFile.Writer writer;
        private final TaskAttemptContext context;
        private final int partition;
        private final MergeFunction merge;
        private final Connection connection;
        private final BulkCells cells;
        private final Table table;
        private final Writables writables = new Writables();
        private final Map<Long, SequenceFile.Reader> readers = new HashMap<>();
        private final Writable baseKey;
        private final Writable baseValue;

        MergingWriter(
                Configuration conf,
                TaskSettings settings,
                SequenceFile.Writer writer,
                Path workDir,
                TaskAttemptContext context)
                throws IOException {
            this.conf = conf;
            this.settings = settings;
            this.writer = writer;
            this.context = context;
            this.partition = context.getTaskAttemptID().getTaskID().getId();
            this.merge = (MergeFunction) Writables.newInstance(conf.getClass(ItchyConf.MERGE_CLASS, null), conf);
            this.connection = ConnectionFactory.createConnection(conf);
            this.cells = new BulkCells(
                    conf, workDir, context.getTaskAttemptID().getTaskID().toString());
            this.table = connection.getTable(ItchyStore.table(conf));
            this.baseKey = (Writable) Writables.newInstance(context.getOutputKeyClass(), conf);
            this.baseValue = (Writable) Writables.newInstance(context.getOutputValueClass(), conf);
        }

        @Override
        public void write(Object key, Object value) throws IOException {
            byte[] row = ItchyStore.row(settings.signature(), writables.bytes((Writable) key));
            Object written = value;
            if (settings.incremental()) {
                List<byte[]> pointers = ItchyStore.visible(
                        table.get(new Get(row).addFamily(ItchyStore.MERGE)), ItchyStore.MERGE, "p", settings.visible());
                if (!pointers.isEmpty()) {
                    ByteBuffer pointer = ByteBuffer.wrap(pointers.get(pointers.size() - 1));
                    Object base = read(pointer.getInt(), pointer.getInt(), pointer.getLong());
                    written = merge.merge(key, base, value);
                    context.getCounter(ItchyCounters.BASE_OUTPUT_RECORDS_MERGED).increment(1);
                }
            }
            long position = writer.getLength();
            writer.append(key, written);
            cells.add(
                    row,
                    ItchyStore.MERGE,
                    ItchyStore.qualifier("p", settings.generation()),
                    ByteBuffer.allocate(16)
                            .putInt(settings.outputDataset())
                            .putInt(partition)
                            .putLong(position)
                            .array());
            context.getCounter(ItchyCounters.HBASE_ROWS_WRITTEN).increment(1);
        }

        /** The output record at a position: seek, read one record. */
        private Object read(int output, int part, long position) throws IOException {
            long id = ((long) output << 32) | part;
            SequenceFile.Reader reader = readers.get(id);
            if (reader == null) {
                String dir = settings.outputDirs().get(output);
                if (dir == null) {
                    throw new IOException("no output directory registered for output " + output);
                }
                reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(new Path(dir, partFile(part))));
                readers.put(id, reader);
            }
            reader.seek(position);
            if (!reader.next(baseKey, baseValue)) {
                throw new IOException("no record at " + position + " of output " + output + " part " + part);
            }
            return baseValue;
        }

        @Override
        public void close(TaskAttemptContext ignored) throws IOException {
            try {
                writer.close();
                cells.close();
                table.close();
                for (SequenceFile.Reader reader : readers.values()) {
                    reader.close();
                }
            } finally {
                connection.close();
            }
        }
    }
}
