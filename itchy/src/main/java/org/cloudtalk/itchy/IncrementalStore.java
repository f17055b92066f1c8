package org.cloudtalk.itchy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The chapter's HBase layout (§5.6.1): one table per deployment; row key = the job's 8-byte signature followed by the
 * intermediate key's bytes; one column family per technique — {@code q} (QMC: offsets and dataset ids), {@code m} (MO:
 * values and their lengths), {@code o} (Merge: where the key's record is in the output). Job records live in family
 * {@code x} under {@code \0job\0<name>}.
 *
 * <p>Every run writes under qualifiers numbered with its increment (0 = the first job), and readers take only
 * increments up to the committed one. A failed or killed increment therefore leaves nothing visible, and its rerun
 * overwrites the same cells: no half-applied increments.
 */
final class IncrementalStore {
    static final byte[] QMC = bytes("q");
    static final byte[] MO = bytes("m");
    static final byte[] MERGE = bytes("o");
    static final byte[] META = bytes("x");
    private static final byte[] RECORD = bytes("record");

    private IncrementalStore() {}

    static TableName table(Configuration conf) {
        return TableName.valueOf(conf.get(ItchyConf.TABLE, "itchy"));
    }

    static void ensureTable(Connection connection, Configuration conf) throws IOException {
        TableName name = table(conf);
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(name)) {
                TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
                for (byte[] family : List.of(QMC, MO, MERGE, META)) {
                    table.setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
                }
                try {
                    admin.createTable(table.build());
                } catch (org.apache.hadoop.hbase.TableExistsException raced) {
                    // another client created it first
                }
            }
        }
    }

    static Optional<JobRecord> record(Connection connection, Configuration conf, String name) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(table(conf))) {
                return Optional.empty();
            }
        }
        try (Table table = connection.getTable(table(conf))) {
            Result result = table.get(new Get(recordRow(name)).addColumn(META, RECORD));
            byte[] value = result.getValue(META, RECORD);
            return value == null
                    ? Optional.empty()
                    : Optional.of(JobRecord.decode(new String(value, StandardCharsets.UTF_8)));
        }
    }

    /** One Put: the commit point of a first job or an increment. */
    static void saveRecord(Connection connection, Configuration conf, JobRecord record) throws IOException {
        try (Table table = connection.getTable(table(conf))) {
            table.put(new Put(recordRow(record.name())).addColumn(META, RECORD, bytes(record.encode())));
        }
    }

    static byte[] row(byte[] signature, byte[] key) {
        return ByteBuffer.allocate(signature.length + key.length)
                .put(signature)
                .put(key)
                .array();
    }

    static byte[] qualifier(String prefix, int increment) {
        return bytes(prefix + increment);
    }

    /** {@code <prefix><increment>.<chunk>}: a key's data of one increment may span several cells. */
    static byte[] qualifier(String prefix, int increment, int chunk) {
        return bytes(prefix + increment + "." + chunk);
    }

    /**
     * The cells of a family with the given qualifier prefix, for committed increments only, by increment and chunk.
     * Walks the raw cells rather than building the result's family map: this runs once per key an MO increment reduces.
     */
    static List<byte[]> committed(Result result, byte[] family, String prefix, int committed) {
        List<Map.Entry<Long, byte[]>> numbered = new ArrayList<>();
        Cell[] raw = result.rawCells();
        for (Cell cell : raw == null ? new Cell[0] : raw) { // an empty result has no cell array
            if (!CellUtil.matchingFamily(cell, family)) {
                continue;
            }
            long number = number(cell, prefix);
            if (number >= 0 && (number >>> 32) <= committed) {
                numbered.add(Map.entry(number, CellUtil.cloneValue(cell)));
            }
        }
        if (numbered.size() > 1) {
            numbered.sort(Map.Entry.comparingByKey()); // qualifiers sort as bytes: "v0.10" before "v0.2"
        }
        List<byte[]> cells = new ArrayList<>(numbered.size());
        numbered.forEach(entry -> cells.add(entry.getValue()));
        return cells;
    }

    /** {@code increment << 32 | chunk} of a {@code <prefix><increment>[.<chunk>]} qualifier; -1 for another prefix. */
    private static long number(Cell cell, String prefix) {
        byte[] qualifier = cell.getQualifierArray();
        int at = cell.getQualifierOffset();
        int end = at + cell.getQualifierLength();
        if (end - at <= prefix.length()) {
            return -1;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (qualifier[at++] != prefix.charAt(i)) {
                return -1;
            }
        }
        long increment = 0;
        while (at < end && qualifier[at] != '.') {
            increment = increment * 10 + (qualifier[at++] - '0');
        }
        long chunk = 0;
        for (at++; at < end; at++) {
            chunk = chunk * 10 + (qualifier[at] - '0');
        }
        return increment << 32 | chunk;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] recordRow(String name) {
        return bytes("\0job\0" + name);
    }
}
