package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * The HDFS reader the testbed runs inside a host (its own JVM, Hadoop's class path): reads the files of a
 * {@link ReadJob} through the HDFS client one after the other (after one small unrecorded warm-up read), and records
 * for each the time from open to the end of close and the DataNode it read from. A failed read is recorded with its
 * error and the next file is read. The CSV appears (atomically) only when every read has been tried.
 *
 * <p>{@code --namenode URI --name NAME --paths FILE (one HDFS path per line) --warm-up PATH --reads N
 * --min-pause-ms A --max-pause-ms B --seed S --out CSV}. Exit 0 when the CSV is written (whatever the reads' outcome), 64 for bad
 * arguments, 1 otherwise.
 */
public final class HdfsReaderMain {
    private static final int BUFFER = 64 * 1024;
    private static final List<String> REQUIRED =
            List.of("namenode", "name", "paths", "warm-up", "reads", "min-pause-ms", "max-pause-ms", "seed", "out");

    private HdfsReaderMain() {}

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    static int run(String[] args, PrintStream err) {
        MainOptions options;
        ReadJob job;
        try {
            options = MainOptions.parse(args, REQUIRED);
            job = new ReadJob(
                    options.get("name"),
                    Files.readAllLines(Path.of(options.get("paths"))).stream()
                            .filter(line -> !line.isBlank())
                            .toList(),
                    options.get("warm-up"),
                    options.integer("reads"),
                    options.millis("min-pause-ms"),
                    options.millis("max-pause-ms"),
                    options.number("seed"));
        } catch (IOException | RuntimeException e) {
            err.println("hdfs reader: " + e.getMessage());
            err.println("usage: --namenode URI --name NAME --paths FILE --warm-up PATH --reads N --min-pause-ms A"
                    + " --max-pause-ms B --seed S --out CSV");
            return 64;
        }
        try {
            read(URI.create(options.get("namenode")), job, Path.of(options.get("out")));
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("hdfs reader failed: " + e);
            return 1;
        }
    }

    private static void read(URI nameNode, ReadJob job, Path out) throws IOException {
        Configuration conf = new HdfsConfiguration();
        conf.set("fs.defaultFS", nameNode.toString());
        Random random = new Random(job.seed());
        byte[] buffer = new byte[BUFFER];
        List<String> lines = new ArrayList<>(List.of(FileRead.CSV_HEADER));
        try (FileSystem fs = FileSystem.newInstance(nameNode, conf)) {
            // As for writes: the first read of a JVM pays for the connection, class loading and the JIT.
            try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(job.warmUp()))) {
                in.read(buffer, 0, BUFFER);
            }
            for (int i = 0; i < job.reads(); i++) {
                ClientMains.randomPause(random, job.minPause(), job.maxPause());
                String path = job.paths().get(random.nextInt(job.paths().size()));
                long startMillis = System.currentTimeMillis();
                long start = System.nanoTime();
                long bytes = 0;
                String dataNode = "";
                String error = "";
                try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        // Asked while a block is open: the stream forgets its DataNode at the end.
                        if (bytes == 0 && in instanceof HdfsDataInputStream hdfs && hdfs.getCurrentDatanode() != null) {
                            dataNode = hdfs.getCurrentDatanode().getIpAddr();
                        }
                        bytes += n;
                    }
                } catch (IOException e) {
                    error = e.toString();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                lines.add(new FileRead(path, bytes, startMillis, seconds, dataNode, error).toCsv());
            }
        }
        ClientMains.writeCsv(out, lines);
    }
}
