package org.cloudtalk.itchy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.mapreduce.Counters;
import org.cloudtalk.itchy.examples.DataGenerator;

/**
 * The Itchy benchmark (a scripted run: {@code bin/itchy-bench MB}): on an HBase mini cluster with its MiniDFSCluster
 * and the local job runner, for Job1, Job2 and WordCount over the same generated data — the first job without and
 * with Itchy, then 1% appended and the Itchy increment vs a plain job recomputing everything. Reports runtime, HDFS
 * bytes read and HBase storage, checks the increment's result equals the recompute, and writes a CSV.
 */
public final class ItchyBenchmark {
    private ItchyBenchmark() {}

    record Row(
            String job,
            String technique,
            double plainFirst,
            double itchyFirst,
            double increment,
            double recompute,
            long plainFirstRead,
            long itchyFirstRead,
            long incrementRead,
            long recomputeRead,
            long hbaseBytes) {}

    public static void main(String[] args) throws Exception {
        long megabytes = args.length > 0 ? Long.parseLong(args[0]) : 256;
        String csv = args.length > 1 ? args[1] : "itchy-bench.csv";
        List<Row> rows = new ArrayList<>();
        try (MiniClusters clusters = MiniClusters.start()) {
            FileSystem fs = clusters.fileSystem();
            Configuration base = clusters.jobConf();
            base.setInt("mapreduce.local.map.tasks.maximum", 2);
            Path lineitem = new Path("/bench/lineitem/base");
            Path text = new Path("/bench/text/base");
            generate(fs, lineitem, megabytes, (file, seed) -> DataGenerator.lineitem(fs, file, 200_000, seed));
            generate(fs, text, megabytes, (file, seed) -> DataGenerator.text(fs, file, 200_000, 20_000, seed));
            Path lineitemAppend = new Path("/bench/lineitem/append");
            Path textAppend = new Path("/bench/text/append");
            appendOnePercent(
                    fs,
                    lineitem,
                    lineitemAppend,
                    (file, rowsWanted) -> DataGenerator.lineitem(fs, file, (int) rowsWanted, 999));
            appendOnePercent(
                    fs,
                    text,
                    textAppend,
                    (file, rowsWanted) -> DataGenerator.text(fs, file, (int) rowsWanted, 20_000, 999));
            rows.add(run(base, "Job1", ExampleJobs::job1, lineitem, lineitemAppend));
            rows.add(run(base, "Job2", ExampleJobs::job2, lineitem, lineitemAppend));
            rows.add(run(base, "WordCount", ExampleJobs::wordCount, text, textAppend));
        }
        StringBuilder out = new StringBuilder("job,technique,plain_first_s,itchy_first_s,increment_s,recompute_s,"
                + "plain_first_read,itchy_first_read,increment_read,recompute_read,hbase_bytes\n");
        System.out.printf(
                Locale.ROOT,
                "%n%-10s %-6s %9s %9s %8s %9s %9s %8s %13s %13s %11s%n",
                "job",
                "tech",
                "plain 1st",
                "itchy 1st",
                "overhead",
                "increment",
                "recompute",
                "speedup",
                "inc read",
                "full read",
                "hbase");
        for (Row row : rows) {
            System.out.printf(
                    Locale.ROOT,
                    "%-10s %-6s %8.1fs %8.1fs %7.1f%% %8.2fs %8.1fs %7.1fx %13d %13d %11d%n",
                    row.job(),
                    row.technique(),
                    row.plainFirst(),
                    row.itchyFirst(),
                    100 * (row.itchyFirst() / row.plainFirst() - 1),
                    row.increment(),
                    row.recompute(),
                    row.recompute() / row.increment(),
                    row.incrementRead(),
                    row.recomputeRead(),
                    row.hbaseBytes());
            out.append(String.format(
                    Locale.ROOT,
                    "%s,%s,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d%n",
                    row.job(),
                    row.technique(),
                    row.plainFirst(),
                    row.itchyFirst(),
                    row.increment(),
                    row.recompute(),
                    row.plainFirstRead(),
                    row.itchyFirstRead(),
                    row.incrementRead(),
                    row.recomputeRead(),
                    row.hbaseBytes()));
        }
        Files.writeString(java.nio.file.Path.of(csv), out);
        System.out.println("wrote " + csv);
    }

    interface FileWriter {
        long write(Path file, long seedOrRows) throws Exception;
    }

    private static void generate(FileSystem fs, Path dir, long megabytes, FileWriter writer) throws Exception {
        long bytes = 0;
        for (int i = 0; bytes < megabytes << 20; i++) {
            bytes += writer.write(new Path(dir, String.format("part-%04d.txt", i)), i + 1);
        }
        System.out.printf(Locale.ROOT, "generated %s: %.1f MB%n", dir, bytes / 1048576.0);
    }

    private static void appendOnePercent(FileSystem fs, Path base, Path append, FileWriter writer) throws Exception {
        long baseBytes = fs.getContentSummary(base).getLength();
        long rows = 200_000;
        long fileBytes = fs.getFileStatus(fs.listStatus(base)[0].getPath()).getLen();
        writer.write(new Path(append, "part.txt"), Math.max(1, rows * (baseBytes / 100) / fileBytes));
        System.out.printf(
                Locale.ROOT,
                "appended %s: %.1f MB (%.2f%%)%n",
                append,
                fs.getContentSummary(append).getLength() / 1048576.0,
                100.0 * fs.getContentSummary(append).getLength() / baseBytes);
    }

    private static Row run(
            Configuration base,
            String job,
            BiFunction<Configuration, String, ItchyJob> factory,
            Path input,
            Path append)
            throws Exception {
        Configuration off = new Configuration(base);
        off.set(ItchyConf.MODE, "off");
        Configuration auto = new Configuration(base);
        auto.set(ItchyConf.MODE, "auto");
        String out = "/bench/out/" + job;
        long t0 = System.nanoTime();
        factory.apply(off, job + "-plain").runFirst(List.of(input), new Path(out + "/plain"));
        long t1 = System.nanoTime();
        ItchyJob itchy = factory.apply(auto, job);
        ItchyJob.RunReport first = itchy.runFirst(List.of(input), new Path(out + "/base"));
        long t2 = System.nanoTime();
        long storage = hbaseBytes(base);
        ItchyJob.RunReport increment = itchy.runIncrement(List.of(append), new Path(out + "/inc-1"));
        long t3 = System.nanoTime();
        factory.apply(off, job + "-full").runFirst(List.of(input, append), new Path(out + "/full"));
        long t4 = System.nanoTime();
        if (!ItchyOutput.current(base, job).equals(ItchyOutput.read(base, new Path(out + "/full")))) {
            throw new IllegalStateException(job + ": the incremental result differs from the full recompute");
        }
        System.out.println(job + ": " + first.decision());
        return new Row(
                job,
                first.mode().name(),
                (t1 - t0) / 1e9,
                (t2 - t1) / 1e9,
                (t3 - t2) / 1e9,
                (t4 - t3) / 1e9,
                inputBytes(base, input),
                read(first.counters()),
                read(increment.counters()),
                inputBytes(base, input, append),
                storage);
    }

    /**
     * Input bytes mapped, as Itchy counts them (a plain job maps its whole input). Hadoop's byte counters come from
     * per-JVM FileSystem statistics, and this JVM also runs HBase, so they would count HBase's I/O too.
     */
    private static long read(Counters counters) {
        return counters.findCounter(ItchyCounters.INPUT_BYTES_MAPPED).getValue();
    }

    private static long inputBytes(Configuration conf, Path... paths) throws IOException {
        long bytes = 0;
        for (Path path : paths) {
            bytes += path.getFileSystem(conf).getContentSummary(path).getLength();
        }
        return bytes;
    }

    /** The Itchy table's size on HDFS after a flush (store files; the WAL is not counted). */
    private static long hbaseBytes(Configuration conf) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(conf);
                Admin admin = connection.getAdmin()) {
            TableName table = IncrementalStore.table(conf);
            admin.flush(table);
            Path dir = new Path(conf.get("hbase.rootdir"), "data/default/" + table.getNameAsString());
            return dir.getFileSystem(conf).getContentSummary(dir).getLength();
        }
    }
}
