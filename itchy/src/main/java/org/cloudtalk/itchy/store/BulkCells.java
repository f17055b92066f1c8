package org.cloudtalk.itchy.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.technique.TaskKeys;

/**
 * A task's incremental data, written as HFiles that the driver bulk-loads once the job has succeeded, rather than as
 * Puts: a Put cost the region server ~16 µs of CPU here (memstore skip-list inserts), so storing a million keys' MO
 * values or QMC offsets made a first job 40-60% slower. Cells are buffered, sorted and written as one HFile per family
 * per spill into the task attempt's work directory, so only committed attempts' files reach {@link #DIR} and HBase.
 *
 * <p>{@link StoreFileWriter} is HBase-private API (what HFileOutputFormat2 uses); pinned to HBase 2.6.
 */
public final class BulkCells implements Closeable {
    /** Under a job's output directory: its committed tasks' HFiles, removed once loaded. */
    public static final String DIR = "_itchy-hfiles";

    private final Configuration conf;
    private final Path dir;
    private final String fileName;
    private final long timestamp;
    private final long spillBytes;
    private final List<KeyValue> buffer = new ArrayList<>();
    private long buffered;
    private int spills;

    /**
     * @param workDir the task attempt's work directory (what its output committer promotes on commit)
     * @param fileName unique among the job's tasks
     */
    public BulkCells(Configuration conf, Path workDir, String fileName) {
        this.conf = conf;
        this.dir = new Path(workDir, DIR);
        this.fileName = fileName;
        this.timestamp = conf.getLong(TaskKeys.TIMESTAMP, System.currentTimeMillis());
        this.spillBytes = conf.getLong(ItchyConf.BULK_SPILL_BYTES, 64L << 20);
    }

    public void add(byte[] row, byte[] family, byte[] qualifier, byte[] value) throws IOException {
        KeyValue cell = new KeyValue(row, family, qualifier, timestamp, value);
        buffer.add(cell);
        buffered += cell.getLength();
        if (buffered >= spillBytes) {
            spill();
        }
    }

    @Override
    public void close() throws IOException {
        spill();
    }

    private void spill() throws IOException {
        if (buffer.isEmpty()) {
            return;
        }
        buffer.sort(CellComparator.getInstance());
        FileSystem fs = dir.getFileSystem(conf);
        List<byte[]> families = new ArrayList<>();
        List<StoreFileWriter> writers = new ArrayList<>();
        try {
            for (KeyValue cell : buffer) {
                int family = 0;
                while (family < families.size() && !CellUtil.matchingFamily(cell, families.get(family))) {
                    family++;
                }
                if (family == families.size()) {
                    byte[] name = CellUtil.cloneFamily(cell);
                    families.add(name);
                    writers.add(new StoreFileWriter.Builder(conf, fs)
                            .withFilePath(new Path(new Path(dir, Bytes.toString(name)), fileName + "-" + spills))
                            .withBloomType(BloomType.ROW)
                            .withFileContext(new HFileContextBuilder().build())
                            .build());
                }
                writers.get(family).append(cell);
            }
        } finally {
            for (StoreFileWriter writer : writers) {
                writer.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(System.currentTimeMillis()));
                writer.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(false));
                writer.appendTrackedTimestampsToMetadata();
                writer.close();
            }
        }
        buffer.clear();
        buffered = 0;
        spills++;
    }

    /** Loads a successful job's HFiles into the table and removes them; false if the job stored nothing. */
    public static boolean load(Configuration conf, TableName table, Path jobOutput) throws IOException {
        Path dir = new Path(jobOutput, DIR);
        FileSystem fs = dir.getFileSystem(conf);
        if (!fs.exists(dir)) {
            return false;
        }
        Configuration loadConf = new Configuration(conf);
        // One file per reduce task per spill: a large job may bring more than the default 32 per region and family.
        loadConf.setInt(BulkLoadHFiles.MAX_FILES_PER_REGION_PER_FAMILY, Integer.MAX_VALUE);
        BulkLoadHFiles.create(loadConf).bulkLoad(table, dir);
        fs.delete(dir, true);
        return true;
    }
}
