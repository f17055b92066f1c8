package org.cloudtalk.benchmarks.itchy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.ItchyCounters;
import org.cloudtalk.itchy.ItchyJob;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.ItchyOutput;
import org.cloudtalk.itchy.MiniClusters;
import org.cloudtalk.itchy.examples.DataGenerator;
import org.cloudtalk.itchy.examples.ExampleJobs;
import org.cloudtalk.itchy.store.ItchyStore;

/**
 * The Itchy benchmark (a scripted run: {@code bin/itchy bench MB}): on an HBase mini cluster with its MiniDFSCluster
 * and the local job runner, for Job1, Job2 and WordCount over the same generated data — the first job without Itchy,
 * then, for the technique the decision model picks and for the alternatives, the first job with Itchy and an increment
 * of 1% appended records; finally a plain job recomputing everything. Reports runtime, input bytes mapped and HBase
 * storage, checks every increment's result equals the recompute, and writes a CSV and two charts
 * ({@link BenchmarkChart}).
 *
 * <p>With several rounds ({@code bin/itchy bench MB CSV JOBS ROUNDS}) each round repeats all of it on a table of its
 * own, and the report gives each time's median over the rounds: on a shared machine one run of a 40 s job moves by
 * ±10%, as much as the first-job overhead being measured. A fifth argument sets the lineitem keys' rows per key, a sixth
 * the size of the append in percent of the base (default 1; the chapter's 1 GB on 300 GB is 0.33).
 */
public final class ItchyBenchmark {
    /**
     * Rows per key by default, as TPC-H has per partkey (6M lineitems, 200,000 parts at scale factor 1). It sets the
     * share of keys a 1% append touches (1 - e^(-0.01 x rows per key)), which bounds what QMC and MO can gain.
     */
    private static final int TPCH_ROWS_PER_KEY = 30;

    private static final int ROWS_PER_FILE = 200_000;

    private static final String OUTPUTS = "/bench/out";

    private ItchyBenchmark() {}

    record Row(
            String job,
            ItchyMode technique,
            boolean chosen,
            double plainFirst,
            double itchyFirst,
            double increment,
            double recompute,
            long incrementRead,
            long recomputeRead,
            long baseRecordsReread,
            long recordsRecomputed,
            long recordsAppended,
            long hbaseBytes) {
        double overheadPercent() {
            return 100 * (itchyFirst / plainFirst - 1);
        }

        double speedup() {
            return recompute / increment;
        }

        /**
         * The most an increment that re-reads {@link #baseRecordsReread} base records can gain: the records a recompute
         * maps over those the increment must map (the appended ones and the re-read ones). For MO and Merge, which
         * re-read nothing, the share appended alone.
         */
        double readBound() {
            return (double) recordsRecomputed / (recordsAppended + baseRecordsReread);
        }

        /** The speed-up as a share of {@link #readBound}. */
        double ofBoundPercent() {
            return 100 * speedup() / readBound();
        }
    }

    /**
     * A job, its base and appended input, an append of the same size for warming up, and the techniques to measure
     * besides the decision model's choice.
     */
    record Workload(
            String job,
            BiFunction<Configuration, String, ItchyJob> factory,
            Path base,
            Path append,
            Path warmUp,
            List<ItchyMode> alternatives) {}

    public static void main(String[] args) throws Exception {
        long megabytes;
        int rounds;
        int rowsPerKey;
        double appendPercent;
        try {
            megabytes = (long) positive(args, 0, "MEGABYTES", 256);
            rounds = (int) positive(args, 3, "ROUNDS", 1);
            rowsPerKey = (int) positive(args, 4, "ROWS_PER_KEY", TPCH_ROWS_PER_KEY);
            appendPercent = positive(args, 5, "APPEND_PERCENT", 1);
        } catch (IllegalArgumentException e) {
            System.err.println("itchy bench: " + e.getMessage());
            System.exit(64); // a usage error, as the other commands (docs/cli.md)
            return;
        }
        String csv = args.length > 1 ? args[1] : "itchy-bench.csv";
        List<String> jobs = args.length > 2 ? List.of(args[2].split(",")) : List.of("Job1", "Job2", "WordCount");
        List<Row> rows = new ArrayList<>();
        try (MiniClusters clusters = MiniClusters.start()) {
            FileSystem fs = clusters.fileSystem();
            Configuration base = clusters.jobConf();
            base.setInt("mapreduce.local.map.tasks.maximum", 2);
            // Job1's partkeys and Job2's (returnflag, linestatus) groups get rowsPerKey rows each.
            long rowsWanted = (megabytes << 20) / bytesPerLineitemRow(fs);
            DataGenerator.Cardinality cardinality = new DataGenerator.Cardinality(
                    (int) Math.max(1, rowsWanted / rowsPerKey), (int) Math.max(1, rowsWanted / rowsPerKey / 2));
            System.out.printf(Locale.ROOT, "lineitem cardinality: %s%n", cardinality);
            Path lineitem = new Path("/bench/lineitem/base");
            Path text = new Path("/bench/text/base");
            Path lineitemAppend = new Path("/bench/lineitem/append");
            Path textAppend = new Path("/bench/text/append");
            Path lineitemWarmUp = new Path("/bench/lineitem/warm-up");
            Path textWarmUp = new Path("/bench/text/warm-up");
            if (jobs.contains("Job1") || jobs.contains("Job2")) {
                generateWithAppend(
                        fs,
                        lineitem,
                        lineitemAppend,
                        lineitemWarmUp,
                        megabytes,
                        appendPercent,
                        (file, count, seed) -> DataGenerator.lineitem(fs, file, count, seed, cardinality));
            }
            if (jobs.contains("WordCount")) {
                generateWithAppend(
                        fs,
                        text,
                        textAppend,
                        textWarmUp,
                        megabytes,
                        appendPercent,
                        (file, count, seed) -> DataGenerator.text(fs, file, count, 20_000, seed));
            }
            List<Workload> workloads = List.of(
                    new Workload(
                            "Job1",
                            ExampleJobs::job1,
                            lineitem,
                            lineitemAppend,
                            lineitemWarmUp,
                            List.of(ItchyMode.QMC)),
                    new Workload(
                            "Job2", ExampleJobs::job2, lineitem, lineitemAppend, lineitemWarmUp, List.of(ItchyMode.MO)),
                    new Workload("WordCount", ExampleJobs::wordCount, text, textAppend, textWarmUp, List.of()));
            for (Workload workload : workloads) {
                if (!jobs.contains(workload.job())) {
                    continue;
                }
                try {
                    List<List<Row>> measured = new ArrayList<>();
                    for (int round = 1; round <= rounds; round++) {
                        List<Row> inRound = inRound(base, round, workload);
                        inRound.forEach(row -> System.out.printf(
                                Locale.ROOT,
                                "measured: %s (overhead %.1f%%, speed-up %.1fx, %.0f%% of its bound %.1fx)%n",
                                row,
                                row.overheadPercent(),
                                row.speedup(),
                                row.ofBoundPercent(),
                                row.readBound()));
                        measured.add(inRound);
                    }
                    rows.addAll(medians(measured));
                } catch (Exception e) {
                    // Report what the other workloads measured, and say plainly which one failed.
                    System.out.println("FAILED: " + workload.job());
                    e.printStackTrace(System.out);
                }
            }
        }
        report(rows, rounds, csv);
    }

    /** The positive number at {@code args[index]}, or {@code otherwise} when there is none. */
    private static double positive(String[] args, int index, String name, double otherwise) {
        if (args.length <= index) {
            return otherwise;
        }
        try {
            double value = Double.parseDouble(args[index]);
            if (value > 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Invalid value " + args[index] + " for " + name + ": a positive number");
    }

    private static void report(List<Row> rows, int rounds, String csv) throws IOException {
        StringBuilder out =
                new StringBuilder("job,technique,chosen,plain_first_s,itchy_first_s,increment_s,recompute_s,"
                        + "increment_read,recompute_read,base_records_reread,records_recomputed,records_appended,"
                        + "read_bound,hbase_bytes\n");
        System.out.printf(
                Locale.ROOT,
                "%n%-10s %-7s %9s %9s %8s %9s %9s %8s %7s %8s %11s %11s %11s %10s%n",
                "job",
                "tech",
                "plain 1st",
                "itchy 1st",
                "overhead",
                "increment",
                "recompute",
                "speedup",
                "bound",
                "of bound",
                "inc mapped",
                "full mapped",
                "re-read",
                "hbase");
        for (Row row : rows) {
            System.out.printf(
                    Locale.ROOT,
                    "%-10s %-7s %8.1fs %8.1fs %7.1f%% %8.2fs %8.1fs %7.1fx %6.1fx %7.0f%% %11d %11d %11d %10d%n",
                    row.job(),
                    row.technique() + (row.chosen() ? "*" : ""),
                    row.plainFirst(),
                    row.itchyFirst(),
                    row.overheadPercent(),
                    row.increment(),
                    row.recompute(),
                    row.speedup(),
                    row.readBound(),
                    row.ofBoundPercent(),
                    row.incrementRead(),
                    row.recomputeRead(),
                    row.baseRecordsReread(),
                    row.hbaseBytes());
            out.append(String.format(
                    Locale.ROOT,
                    "%s,%s,%s,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d,%.3f,%d%n",
                    row.job(),
                    row.technique(),
                    row.chosen(),
                    row.plainFirst(),
                    row.itchyFirst(),
                    row.increment(),
                    row.recompute(),
                    row.incrementRead(),
                    row.recomputeRead(),
                    row.baseRecordsReread(),
                    row.recordsRecomputed(),
                    row.recordsAppended(),
                    row.readBound(),
                    row.hbaseBytes()));
        }
        System.out.println(
                "* = the decision model's choice" + (rounds > 1 ? "; times are medians of " + rounds + " rounds" : ""));
        Files.writeString(java.nio.file.Path.of(csv), out);
        List<String> charts = BenchmarkChart.write(rows, csv.replaceFirst("\\.csv$", ""));
        System.out.println("wrote " + csv + " and " + String.join(", ", charts));
    }

    /** Writes {@code rows} generated rows with {@code seed} to a file; returns its bytes. */
    interface RowWriter {
        long write(Path file, int rows, long seed) throws Exception;
    }

    private static long bytesPerLineitemRow(FileSystem fs) throws Exception {
        Path probe = new Path("/bench/probe.txt");
        long bytes = DataGenerator.lineitem(fs, probe, 10_000, 1);
        fs.delete(probe, false);
        return bytes / 10_000;
    }

    /**
     * About {@code megabytes} of base files under {@code base}, then {@code appendPercent} of that as one new file
     * under {@code append}, and another such file, of other rows, under {@code warmUp}.
     */
    private static void generateWithAppend(
            FileSystem fs, Path base, Path append, Path warmUp, long megabytes, double appendPercent, RowWriter writer)
            throws Exception {
        long baseBytes = 0;
        for (int i = 0; baseBytes < megabytes << 20; i++) {
            baseBytes += writer.write(new Path(base, String.format("part-%04d.txt", i)), ROWS_PER_FILE, i + 1);
        }
        System.out.printf(Locale.ROOT, "generated %s: %.1f MB%n", base, baseBytes / 1048576.0);
        long fileBytes = fs.getFileStatus(fs.listStatus(base)[0].getPath()).getLen();
        long appendRows = Math.max(1, Math.round(ROWS_PER_FILE * (baseBytes * appendPercent / 100) / fileBytes));
        long appendBytes = writer.write(new Path(append, "part.txt"), (int) appendRows, 999);
        writer.write(new Path(warmUp, "part.txt"), (int) appendRows, 998);
        System.out.printf(
                Locale.ROOT,
                "appended %s: %.1f MB (%.2f%%)%n",
                append,
                appendBytes / 1048576.0,
                100.0 * appendBytes / baseBytes);
    }

    /** One round of {@code workload} on a table of its own; the round's outputs are removed afterwards. */
    private static List<Row> inRound(Configuration base, int round, Workload workload) throws Exception {
        try {
            return onOwnTable(base, "itchy-bench-" + round, conf -> run(conf, workload));
        } finally {
            FileSystem.get(base).delete(new Path(OUTPUTS), true);
        }
    }

    interface TableAction<T> {
        T run(Configuration conf) throws Exception;
    }

    /**
     * Runs {@code action} with Itchy's table set to {@code table}, created beforehand (an operator's one-time set-up,
     * not a cost of any job, else the first Itchy job measured pays ~2 s) and dropped afterwards.
     */
    private static <T> T onOwnTable(Configuration base, String table, TableAction<T> action) throws Exception {
        Configuration conf = new Configuration(base);
        conf.set(ItchyConf.TABLE, table);
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            ItchyStore.ensureTable(connection, conf);
            try {
                return action.run(conf);
            } finally {
                try (Admin admin = connection.getAdmin()) {
                    admin.disableTable(ItchyStore.table(conf));
                    admin.deleteTable(ItchyStore.table(conf));
                }
            }
        }
    }

    /** Per job and technique, each time's median over the rounds; counts and bytes are the same in every round. */
    private static List<Row> medians(List<List<Row>> rounds) {
        List<Row> medians = new ArrayList<>();
        for (int i = 0; i < rounds.get(0).size(); i++) {
            int at = i;
            List<Row> same = rounds.stream().map(round -> round.get(at)).toList();
            Row first = same.get(0);
            medians.add(new Row(
                    first.job(),
                    first.technique(),
                    first.chosen(),
                    median(same, Row::plainFirst),
                    median(same, Row::itchyFirst),
                    median(same, Row::increment),
                    median(same, Row::recompute),
                    first.incrementRead(),
                    first.recomputeRead(),
                    first.baseRecordsReread(),
                    first.recordsRecomputed(),
                    first.recordsAppended(),
                    first.hbaseBytes()));
        }
        return medians;
    }

    private static double median(List<Row> rows, ToDoubleFunction<Row> time) {
        double[] sorted = rows.stream().mapToDouble(time).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The decision model's technique first, then each alternative, all against one plain first job and recompute. */
    private static List<Row> run(Configuration base, Workload workload) throws Exception {
        String out = OUTPUTS + "/" + workload.job();
        // Warm up the JIT and page cache on the small append, so the first timed job does not pay for it.
        workload.factory()
                .apply(mode(base, "off"), workload.job() + "-warm-up")
                .runFirst(List.of(workload.append()), new Path(out + "/warm-up"));
        // Itchy's own paths too (its wrapped tasks, HFile writes, bulk loads, the region server's row-seeking scans),
        // as a region server that has been up a while has them compiled: without this, the first round's increments
        // took up to twice as long as the third's.
        List<String> modes = new ArrayList<>(List.of("auto"));
        workload.alternatives().forEach(mode -> modes.add(mode.name().toLowerCase(Locale.ROOT)));
        onOwnTable(base, "itchy-bench-warm-up", conf -> {
            for (String mode : modes) {
                String name = workload.job() + "-warm-up-" + mode;
                ItchyJob itchy = workload.factory().apply(mode(conf, mode), name);
                itchy.runFirst(List.of(workload.append()), new Path(out + "/" + name));
                itchy.runIncrement(List.of(workload.warmUp()), new Path(out + "/" + name + "-increment"));
            }
            return null;
        });
        settle(base);
        long start = System.nanoTime();
        ItchyJob.RunReport plain = workload.factory()
                .apply(mode(base, "off"), workload.job() + "-plain")
                .runFirst(List.of(workload.base()), new Path(out + "/plain"));
        double plainFirst = seconds(start);
        List<Measured> measured = new ArrayList<>();
        measured.add(runItchy(base, workload, "auto"));
        for (ItchyMode alternative : workload.alternatives()) {
            if (alternative == measured.get(0).first().mode()) {
                continue;
            }
            measured.add(runItchy(base, workload, alternative.name().toLowerCase(Locale.ROOT)));
        }
        settle(base);
        start = System.nanoTime();
        ItchyJob.RunReport full = workload.factory()
                .apply(mode(base, "off"), workload.job() + "-full")
                .runFirst(List.of(workload.base(), workload.append()), new Path(out + "/full"));
        double recompute = seconds(start);
        long recordsRecomputed = full.counter(TaskCounter.MAP_INPUT_RECORDS);
        long recordsAppended = recordsRecomputed - plain.counter(TaskCounter.MAP_INPUT_RECORDS);
        var fullResult = ItchyOutput.read(base, new Path(out + "/full"));
        long recomputeRead = inputBytes(base, workload.base(), workload.append());
        List<Row> rows = new ArrayList<>();
        for (Measured m : measured) {
            if (!ItchyOutput.current(base, m.name()).equals(fullResult)) {
                throw new IllegalStateException(m.name() + ": the incremental result differs from the full recompute");
            }
            System.out.println(m.name() + ": " + m.first().decision());
            System.out.println(m.name() + ": first job " + m.first().phases() + "; increment "
                    + m.increment().phases());
            rows.add(new Row(
                    workload.job(),
                    m.first().mode(),
                    m == measured.get(0),
                    plainFirst,
                    m.firstSeconds(),
                    m.incrementSeconds(),
                    recompute,
                    m.increment().counter(ItchyCounters.INPUT_BYTES_MAPPED),
                    recomputeRead,
                    m.increment().counter(ItchyCounters.BASE_RECORDS_REREAD),
                    recordsRecomputed,
                    recordsAppended,
                    m.hbaseBytes()));
        }
        return rows;
    }

    record Measured(
            String name,
            ItchyJob.RunReport first,
            double firstSeconds,
            ItchyJob.RunReport increment,
            double incrementSeconds,
            long hbaseBytes) {}

    private static Measured runItchy(Configuration base, Workload workload, String mode) throws Exception {
        String name = workload.job() + "-" + mode;
        String out = OUTPUTS + "/" + name;
        ItchyJob itchy = workload.factory().apply(mode(base, mode), name);
        settle(base);
        long start = System.nanoTime();
        ItchyJob.RunReport first = itchy.runFirst(List.of(workload.base()), new Path(out + "/base"));
        double firstSeconds = seconds(start);
        long storage = hbaseBytes(base, name);
        settle(base);
        start = System.nanoTime();
        ItchyJob.RunReport increment = itchy.runIncrement(List.of(workload.append()), new Path(out + "/inc-1"));
        return new Measured(name, first, firstSeconds, increment, seconds(start), storage);
    }

    /**
     * Waits (at most 10 minutes) until Itchy's table has no compaction running: a bulk load starts compactions, which
     * on these two cores took CPU from the next timed job (an increment runs hours after the run before it, on a
     * cluster at rest).
     */
    private static void settle(Configuration conf) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        try (Connection connection = ConnectionFactory.createConnection(conf);
                Admin admin = connection.getAdmin()) {
            TableName table = ItchyStore.table(conf);
            while (admin.tableExists(table)
                    && admin.getCompactionState(table) != CompactionState.NONE
                    && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static Configuration mode(Configuration base, String mode) {
        Configuration conf = new Configuration(base);
        conf.set(ItchyConf.MODE, mode);
        return conf;
    }

    private static long inputBytes(Configuration conf, Path... paths) throws IOException {
        long bytes = 0;
        for (Path path : paths) {
            bytes += path.getFileSystem(conf).getContentSummary(path).getLength();
        }
        return bytes;
    }

    /**
     * What a job keeps in HBase: the bytes of its cells (row, family, qualifier, timestamp, value), counted by a
     * key-only scan of its rows. Store-file sizes would also count compactions in progress and the other jobs.
     */
    private static long hbaseBytes(Configuration conf, String name) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(conf);
                Table table = connection.getTable(ItchyStore.table(conf))) {
            byte[] signature = HexFormat.of()
                    .parseHex(ItchyStore.record(connection, conf, name)
                            .orElseThrow()
                            .signature());
            Scan scan = new Scan()
                    .setStartStopRowForPrefixScan(signature)
                    .setFilter(new KeyOnlyFilter(true))
                    .setCaching(1000);
            long bytes = 0;
            try (ResultScanner scanner = table.getScanner(scan)) {
                for (Result result : scanner) {
                    for (Cell cell : result.rawCells()) {
                        bytes += cell.getRowLength()
                                + cell.getFamilyLength()
                                + cell.getQualifierLength()
                                + Long.BYTES
                                + Bytes.toInt(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength());
                    }
                }
            }
            return bytes;
        }
    }
}
