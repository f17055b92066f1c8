package org.cloudtalk.itchy.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.ItchyException;

/**
 * Owns Itchy's HBase layout and its commit. The chapter's layout (§5.6.1): one table per deployment; row key = the
 * job's 8-byte signature followed by the intermediate key's bytes; one column family per technique — {@code q} (QMC:
 * offsets and dataset ids), {@code m} (MO: values and their lengths), {@code o} (Merge: where the key's record is in the
 * output). A job's record lives in family {@code x} of row {@code \0job\0<name>}: the {@link JobRecord}, the number of
 * its committed increment (what a commit checks), and a counter that hands out generations.
 *
 * <p>Every run stores its cells under qualifiers numbered with a generation of its own ({@link #newGeneration}), and
 * readers take only the generations that the committed job record names ({@link #visible}). Committing is one
 * check-and-mutate of the job record's row, conditional on the increment number the run started from: of two runs that
 * started from the same increment only one commits, the other is refused, and the cells of a refused, failed or killed
 * run stay invisible whatever runs next, since no later run can be given its generation.
 */
public final class ItchyStore {
    public static final byte[] QMC = bytes("q");
    public static final byte[] MO = bytes("m");
    public static final byte[] MERGE = bytes("o");
    private static final byte[] META = bytes("x");
    private static final byte[] RECORD = bytes("record");
    /** The committed increment's number, as 4 bytes: the value a commit is conditional on. */
    private static final byte[] INCREMENT = bytes("increment");
    /** The last generation handed out to a run of the job. */
    private static final byte[] GENERATIONS = bytes("generations");

    /** The longest {@code itchy.hbase.table} name, in bytes: room for it is kept in every row's length ({@link #MAX_ROW}). */
    public static final int MAX_TABLE_NAME_BYTES = 128;
    /**
     * The longest row Itchy writes. HBase limits a row key to {@link HConstants#MAX_ROW_LENGTH} bytes, and its client
     * finds a row's region by scanning hbase:meta from {@code table,row,99999999999999}, a key under the same limit:
     * a row that fits alone but not in that key is written in a bulk load and then cannot be read back.
     */
    public static final int MAX_ROW = HConstants.MAX_ROW_LENGTH - MAX_TABLE_NAME_BYTES - 2 - 14;

    private ItchyStore() {}

    public static TableName table(Configuration conf) {
        return TableName.valueOf(conf.getTrimmed(ItchyConf.TABLE, "itchy")); // as ItchyConf checks it
    }

    public static void ensureTable(Connection connection, Configuration conf) throws IOException {
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

    public static Optional<JobRecord> record(Connection connection, Configuration conf, String name)
            throws IOException {
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

    /**
     * A generation for a new run of the job: an atomic HBase increment of a counter in the job's row, so no two runs,
     * concurrent or not, get the same one. Generations grow, so the committed ones are in commit order.
     */
    public static int newGeneration(Connection connection, Configuration conf, String name) throws IOException {
        try (Table table = connection.getTable(table(conf))) {
            return Math.toIntExact(table.incrementColumnValue(recordRow(name), META, GENERATIONS, 1));
        }
    }

    /**
     * The commit point of a run: writes {@code next} if the job's committed increment is still that of
     * {@code previous} (none for a first job), atomically. Returns false, writing nothing, if another run committed
     * first.
     */
    public static boolean commit(
            Connection connection, Configuration conf, Optional<JobRecord> previous, JobRecord next)
            throws IOException {
        byte[] row = recordRow(next.name());
        CheckAndMutate.Builder check = CheckAndMutate.newBuilder(row);
        CheckAndMutate.Builder condition = previous.isPresent()
                ? check.ifEquals(META, INCREMENT, Bytes.toBytes(previous.get().committed()))
                : check.ifNotExists(META, INCREMENT);
        Put put = new Put(row)
                .addColumn(META, RECORD, bytes(next.encode()))
                .addColumn(META, INCREMENT, Bytes.toBytes(next.committed()));
        try (Table table = connection.getTable(table(conf))) {
            return table.checkAndMutate(condition.build(put)).isSuccess();
        }
    }

    /**
     * Deletes the cells of the job's runs that were never committed and never can be: those of a generation older than
     * the newest committed one and not committed itself. A run reads the job record before it takes its generation, so
     * a run with an older generation started from an older increment and its commit is refused; a run still in flight
     * (a newer generation) is left alone. Scans the job's rows: a maintenance step, not part of every increment.
     *
     * @return the number of cells deleted
     */
    public static long reclaim(Connection connection, Configuration conf, JobRecord record) throws IOException {
        List<Integer> committed = record.generations().committed();
        if (committed.isEmpty()) {
            return 0;
        }
        int newest = committed.get(committed.size() - 1);
        byte[] signature = HexFormat.of().parseHex(record.signature());
        Scan scan = new Scan()
                .setRowPrefixFilter(signature)
                .addFamily(QMC)
                .addFamily(MO)
                .addFamily(MERGE);
        long deleted = 0;
        try (Table table = connection.getTable(table(conf));
                ResultScanner scanner = table.getScanner(scan)) {
            List<Delete> deletes = new ArrayList<>();
            for (Result result : scanner) {
                Delete delete = new Delete(result.getRow());
                for (Cell cell : result.rawCells()) {
                    long generation = generation(cell);
                    if (generation >= 0
                            && generation < newest
                            && !record.generations().contains(generation)) {
                        delete.addColumns(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell));
                        deleted++;
                    }
                }
                if (!delete.isEmpty()) {
                    deletes.add(delete);
                }
                if (deletes.size() >= 1000) {
                    table.delete(deletes);
                    deletes.clear();
                }
            }
            table.delete(deletes);
        }
        return deleted;
    }

    /** The generation of a {@code <letters><generation>[.<chunk>]} qualifier; -1 for one without. */
    private static long generation(Cell cell) {
        byte[] qualifier = cell.getQualifierArray();
        int at = cell.getQualifierOffset();
        int end = at + cell.getQualifierLength();
        while (at < end && !Character.isDigit(qualifier[at])) {
            at++;
        }
        if (at == end) {
            return -1;
        }
        long generation = 0;
        while (at < end && Character.isDigit(qualifier[at])) {
            generation = generation * 10 + (qualifier[at++] - '0');
        }
        return generation;
    }

    /**
     * A key's row: the job's signature and the serialized key.
     *
     * @throws ItchyException if the row would be longer than HBase allows, which HBase itself reports in errors that
     *     name no key, at the bulk load or deep in a task
     */
    public static byte[] row(byte[] signature, byte[] key) {
        if (signature.length + key.length > MAX_ROW) {
            throw new ItchyException("an intermediate or output key of " + key.length + " bytes serialized (beginning "
                    + Bytes.toStringBinary(key, 0, Math.min(key.length, 40)) + ") is too long: Itchy stores each key in"
                    + " an HBase row, limited to " + MAX_ROW + " bytes here (" + signature.length
                    + " of them the job's signature); shorten the job's keys, or run it with itchy.mode=off");
        }
        return ByteBuffer.allocate(signature.length + key.length)
                .put(signature)
                .put(key)
                .array();
    }

    public static byte[] qualifier(String prefix, int generation) {
        return bytes(prefix + generation);
    }

    /** {@code <prefix><generation>.<chunk>}: a key's data of one run may span several cells. */
    public static byte[] qualifier(String prefix, int generation, int chunk) {
        return bytes(prefix + generation + "." + chunk);
    }

    /**
     * The cells of a family with the given qualifier prefix, of the visible generations only, by generation and chunk.
     * Walks the raw cells rather than building the result's family map: this runs once per key an MO increment reduces.
     */
    public static List<byte[]> visible(Result result, byte[] family, String prefix, Generations visible) {
        List<Map.Entry<Long, byte[]>> numbered = new ArrayList<>();
        Cell[] raw = result.rawCells();
        for (Cell cell : raw == null ? new Cell[0] : raw) { // an empty result has no cell array
            if (!CellUtil.matchingFamily(cell, family)) {
                continue;
            }
            long number = number(cell, prefix);
            if (number >= 0 && visible.contains(number >>> 32)) {
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

    /** {@code generation << 32 | chunk} of a {@code <prefix><generation>[.<chunk>]} qualifier; -1 for another prefix. */
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
        long generation = 0;
        while (at < end && qualifier[at] != '.') {
            generation = generation * 10 + (qualifier[at++] - '0');
        }
        long chunk = 0;
        for (at++; at < end; at++) {
            chunk = chunk * 10 + (qualifier[at] - '0');
        }
        return generation << 32 | chunk;
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** What precedes a job's name in its record's row. */
    private static final String RECORD_ROW_PREFIX = "\0job\0";

    /**
     * Why {@code name} cannot name a job, or empty if it can. Empty or blank-edged names are quoting mistakes (an unset
     * shell variable) that would silently name another job; control characters would break {@code status}'s lines;
     * and the record's row, prefix and name, must fit HBase's row limit.
     */
    public static Optional<String> nameProblem(String name) {
        if (name.isEmpty()) {
            return Optional.of("a job name must not be empty");
        }
        if (name.isBlank() || !name.strip().equals(name)) {
            return Optional.of("a job name must not begin or end with white space");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("a job name must not hold control characters");
        }
        int most = MAX_ROW - RECORD_ROW_PREFIX.length();
        int length = bytes(name).length;
        if (length > most) {
            return Optional.of("a job name must be at most " + most + " bytes in UTF-8, not " + length);
        }
        return Optional.empty();
    }

    /** @throws ItchyException if {@code name} cannot name a job ({@link #nameProblem}) */
    public static void checkName(String name) {
        nameProblem(name).ifPresent(problem -> {
            throw new ItchyException("Invalid job name '" + abbreviated(name) + "': " + problem);
        });
    }

    private static byte[] recordRow(String name) {
        checkName(name);
        return bytes(RECORD_ROW_PREFIX + name);
    }

    /** A name as messages show it, on one line: control characters as '?', a name too long to be valid cut. */
    public static String abbreviated(String name) {
        String shown = name.length() <= 60 ? name : name.substring(0, 60) + "...";
        return shown.codePoints()
                .map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }
}
