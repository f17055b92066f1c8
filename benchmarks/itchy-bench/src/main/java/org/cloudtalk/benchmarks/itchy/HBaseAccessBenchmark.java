package org.cloudtalk.benchmarks.itchy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.cloudtalk.itchy.MiniClusters;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.RowBatch;

/**
 * What reading and writing Itchy's rows costs per row on the benchmark's set-up ({@code bin/itchy bench-hbase ROWS}):
 * an HBase mini cluster in this JVM, rows shaped like Job1's QMC rows (8-byte signature + 8-byte key, a 240-byte and
 * a 120-byte cell). Puts through a BufferedMutator (with and without the WAL), a full scan, and lookups of a random
 * quarter of the rows by batched Gets and by scans with a multi-row-range filter. Three rounds; prints each.
 */
public final class HBaseAccessBenchmark {
    private static final byte[] SIGNATURE = new byte[8];

    private HBaseAccessBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        try (MiniClusters clusters = MiniClusters.start()) {
            Configuration conf = clusters.jobConf();
            try (Connection connection = ConnectionFactory.createConnection(conf)) {
                ItchyStore.ensureTable(connection, conf);
                try (Table table = connection.getTable(ItchyStore.table(conf))) {
                    for (int round = 1; round <= 3; round++) {
                        report(round, "put, WAL", put(connection, conf, rows, Durability.USE_DEFAULT), rows);
                        report(round, "put, no WAL", put(connection, conf, rows, Durability.SKIP_WAL), rows);
                        try (Admin admin = connection.getAdmin()) {
                            admin.flush(ItchyStore.table(conf));
                        }
                        report(round, "scan", scan(table), rows);
                        List<byte[]> keys = randomKeys(rows, rows / 4, new Random(round));
                        report(round, "get, batches of 500", get(table, keys), keys.size());
                        report(round, "multi-row-range scan, 5000 rows each", rangeScan(table, keys), keys.size());
                    }
                }
            }
        }
    }

    private static void report(int round, String what, long nanos, int rows) {
        System.out.printf(
                Locale.ROOT, "round %d: %-40s %8.1f us/row (%d rows)%n", round, what, nanos / 1e3 / rows, rows);
    }

    private static byte[] key(long key) {
        return ByteBuffer.allocate(8).putLong(Long.reverse(key)).array();
    }

    private static byte[] row(long key) {
        return ItchyStore.row(SIGNATURE, key(key));
    }

    private static long put(Connection connection, Configuration conf, int rows, Durability durability)
            throws Exception {
        byte[] offsets = new byte[240];
        byte[] datasets = new byte[120];
        long start = System.nanoTime();
        try (BufferedMutator mutator = connection.getBufferedMutator(ItchyStore.table(conf))) {
            for (int i = 0; i < rows; i++) {
                mutator.mutate(new Put(row(i))
                        .addColumn(ItchyStore.QMC, ItchyStore.qualifier("o", 0, 0), offsets)
                        .addColumn(ItchyStore.QMC, ItchyStore.qualifier("d", 0, 0), datasets)
                        .setDurability(durability));
            }
        }
        return System.nanoTime() - start;
    }

    private static long scan(Table table) throws Exception {
        long start = System.nanoTime();
        Scan scan = new Scan()
                .setStartStopRowForPrefixScan(SIGNATURE)
                .addFamily(ItchyStore.QMC)
                .setCaching(1000);
        try (ResultScanner scanner = table.getScanner(scan)) {
            for (Result result : scanner) {
                ItchyStore.visible(result, ItchyStore.QMC, "o", new Generations(List.of(0)));
            }
        }
        return System.nanoTime() - start;
    }

    /** The serialized keys of a random {@code count} of the rows, each once. */
    private static List<byte[]> randomKeys(int rows, int count, Random random) {
        List<byte[]> keys = new ArrayList<>(count);
        random.ints(count, 0, rows).distinct().forEach(i -> keys.add(key(i)));
        return keys;
    }

    private static long get(Table table, List<byte[]> keys) throws Exception {
        long start = System.nanoTime();
        List<Get> batch = new ArrayList<>();
        for (byte[] key : keys) {
            batch.add(new Get(ItchyStore.row(SIGNATURE, key)).addFamily(ItchyStore.QMC));
            if (batch.size() == 500) {
                table.get(batch);
                batch.clear();
            }
        }
        table.get(batch);
        return System.nanoTime() - start;
    }

    /** What Itchy's key lookups and MO read-ahead do ({@link RowBatch}), 5,000 keys per scan. */
    private static long rangeScan(Table table, List<byte[]> keys) throws Exception {
        long start = System.nanoTime();
        for (int from = 0; from < keys.size(); from += 5000) {
            RowBatch.read(table, ItchyStore.QMC, SIGNATURE, keys.subList(from, Math.min(keys.size(), from + 5000)));
        }
        return System.nanoTime() - start;
    }
}
