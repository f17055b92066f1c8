package org.cloudtalk.itchy.qmc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.RowBatch;
import org.cloudtalk.itchy.technique.Parallel;

/**
 * QMC's lookup: the base-record offsets stored for the keys an increment touches, per base dataset. The touched rows
 * are put in row order and cut into contiguous row ranges read concurrently: a single reader leaves the region server
 * idle while it decodes each batch, and on a cluster the ranges fall on different region servers.
 */
final class OffsetLookup {
    /** Rows per read when seeking from touched row to touched row. */
    private static final int BATCH = 1000;
    /**
     * Above this fraction of the job's keys touched, the lookup reads all of the job's rows rather than seeking from
     * touched row to touched row: on the benchmark's set-up a plain scan cost 4.3 µs per row read and a seeking one
     * 25.3 µs per row found (docs/performance.md, HBase per-row costs), so seeking costs less below about 17%.
     */
    private static final double SCAN_FRACTION = 0.17;
    /** Ranges per reader thread when scanning, so that a range denser in rows than the others does not hold up the rest. */
    private static final int SCAN_RANGES_PER_THREAD = 4;

    /** The offsets found, sorted and distinct per dataset id, and whether they were found by scanning. */
    record Found(SortedMap<Integer, long[]> offsets, boolean scanned) {}

    private final Connection connection;
    private final TableName table;
    private final byte[] signature;
    private final Generations visible;

    /** Looks up the job's rows of {@code signature} in {@code table}, taking cells of the {@code visible} generations. */
    OffsetLookup(Connection connection, TableName table, byte[] signature, Generations visible) {
        this.connection = connection;
        this.table = table;
        this.signature = signature.clone();
        this.visible = visible;
    }

    /** The offsets stored for the serialized {@code keys} (each once) of a job that has {@code jobKeys} keys. */
    Found find(List<byte[]> keys, long jobKeys, int threads) throws IOException {
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Bytes.BYTES_COMPARATOR); // key order is row order: rows are the signature followed by the key
        boolean scan = (double) sorted.size() / Math.max(1, jobKeys) > SCAN_FRACTION;
        List<Map<Integer, LongList>> parts;
        if (scan) {
            int ranges = Math.max(1, threads) * SCAN_RANGES_PER_THREAD;
            Set<ByteBuffer> touched = new HashSet<>();
            sorted.forEach(key -> touched.add(ByteBuffer.wrap(key)));
            parts = Parallel.map(
                    threads,
                    cut(sorted, (sorted.size() + ranges - 1) / ranges),
                    "scanning for offsets",
                    range -> scan(range, touched));
        } else {
            parts = Parallel.map(threads, cut(sorted, BATCH), "looking up offsets", this::seek);
        }
        Map<Integer, LongList> merged = new HashMap<>();
        parts.forEach(part -> part.forEach((dataset, offsets) ->
                merged.computeIfAbsent(dataset, id -> new LongList()).addAll(offsets)));
        SortedMap<Integer, long[]> offsets = new TreeMap<>();
        merged.forEach((dataset, list) -> offsets.put(dataset, list.sortedDistinct()));
        return new Found(offsets, scan);
    }

    private Map<Integer, LongList> seek(List<byte[]> keys) throws IOException {
        Map<Integer, LongList> offsets = new HashMap<>();
        try (Table rows = connection.getTable(table)) { // a Table is not thread-safe; its connection is
            RowBatch.read(rows, ItchyStore.QMC, signature, keys).forEach(result -> add(result, offsets));
        }
        return offsets;
    }

    /** All rows from the range's first key to its last, keeping the touched ones. */
    private Map<Integer, LongList> scan(List<byte[]> keys, Set<ByteBuffer> touched) throws IOException {
        Scan scan = new Scan()
                .withStartRow(ItchyStore.row(signature, keys.get(0)))
                .withStopRow(ItchyStore.row(signature, keys.get(keys.size() - 1)), true)
                .addFamily(ItchyStore.QMC)
                .setCaching(BATCH);
        Map<Integer, LongList> offsets = new HashMap<>();
        try (Table rows = connection.getTable(table);
                ResultScanner scanner = rows.getScanner(scan)) {
            for (Result result : scanner) {
                byte[] row = result.getRow();
                if (touched.contains(ByteBuffer.wrap(row, signature.length, row.length - signature.length)
                        .slice())) {
                    add(result, offsets);
                }
            }
        }
        return offsets;
    }

    /** Adds a row's committed offsets to {@code into}, per dataset. */
    private void add(Result row, Map<Integer, LongList> into) {
        List<byte[]> offsets = ItchyStore.visible(row, ItchyStore.QMC, "o", visible);
        List<byte[]> datasets = ItchyStore.visible(row, ItchyStore.QMC, "d", visible);
        for (int i = 0; i < Math.min(offsets.size(), datasets.size()); i++) {
            ByteBuffer offsetBuffer = ByteBuffer.wrap(offsets.get(i));
            ByteBuffer datasetBuffer = ByteBuffer.wrap(datasets.get(i));
            while (offsetBuffer.hasRemaining() && datasetBuffer.hasRemaining()) {
                into.computeIfAbsent(datasetBuffer.getInt(), id -> new LongList())
                        .add(offsetBuffer.getLong());
            }
        }
    }

    /** Consecutive pieces of {@code size} keys, the last one maybe shorter; none for no keys. */
    private static List<List<byte[]>> cut(List<byte[]> sorted, int size) {
        List<List<byte[]>> pieces = new ArrayList<>();
        for (int from = 0; from < sorted.size(); from += size) {
            pieces.add(sorted.subList(from, Math.min(sorted.size(), from + size)));
        }
        return pieces;
    }

    /** A growable array of longs: millions of offsets without boxing. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        void addAll(LongList other) {
            if (size + other.size > values.length) {
                values = Arrays.copyOf(values, Math.max(size + other.size, size * 2));
            }
            System.arraycopy(other.values, 0, values, size, other.size);
            size += other.size;
        }

        long[] sortedDistinct() {
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            int distinct = 0;
            for (int i = 0; i < sorted.length; i++) {
                if (i == 0 || sorted[i] != sorted[i - 1]) {
                    sorted[distinct++] = sorted[i];
                }
            }
            return Arrays.copyOf(sorted, distinct);
        }
    }
}
