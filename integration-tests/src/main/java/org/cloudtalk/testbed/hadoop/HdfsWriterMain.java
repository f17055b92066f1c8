package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * The HDFS writer the testbed runs inside a host (its own JVM, Hadoop's class path): writes the files of a
 * {@link WriteJob} through the HDFS client one after the other (after one small unrecorded warm-up file), and records for each one the time from create to
 * the end of close (the NameNode has then committed every block) and the DataNodes holding its blocks
 * ({@code getFileBlockLocations}). A failed write is recorded with its error and the next file is written. The CSV
 * appears (atomically) only when every file has been tried.
 *
 * <p>{@code --namenode URI --dir PATH --files N --bytes B --replication R --min-pause-ms A --max-pause-ms B --seed S
 * --out CSV}. Exit 0 when the CSV is written (whatever the writes' outcome), 64 for bad arguments, 1 otherwise.
 */
public final class HdfsWriterMain {
    private static final int BUFFER = 64 * 1024;
    private static final List<String> REQUIRED =
            List.of("namenode", "dir", "files", "bytes", "replication", "min-pause-ms", "max-pause-ms", "seed", "out");

    private HdfsWriterMain() {}

    public static void main(String[] args) {
        System.exit(run(args, System.err));
    }

    static int run(String[] args, PrintStream err) {
        MainOptions options;
        WriteJob job;
        try {
            options = MainOptions.parse(args, REQUIRED);
            job = new WriteJob(
                    Path.of(options.get("dir")).getFileName().toString(),
                    options.integer("files"),
                    options.number("bytes"),
                    options.integer("replication"),
                    options.millis("min-pause-ms"),
                    options.millis("max-pause-ms"),
                    options.number("seed"));
        } catch (RuntimeException e) {
            err.println("hdfs writer: " + e.getMessage());
            err.println("usage: --namenode URI --dir PATH --files N --bytes B --replication R --min-pause-ms A"
                    + " --max-pause-ms B --seed S --out CSV");
            return 64;
        }
        try {
            write(URI.create(options.get("namenode")), options.get("dir"), job, Path.of(options.get("out")));
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("hdfs writer failed: " + e);
            return 1;
        }
    }

    private static void write(URI nameNode, String dir, WriteJob job, Path out) throws IOException {
        Configuration conf = new HdfsConfiguration();
        conf.set("fs.defaultFS", nameNode.toString());
        Random random = new Random(job.seed());
        byte[] buffer = new byte[BUFFER];
        random.nextBytes(buffer);
        List<String> lines = new ArrayList<>(List.of(FileWrite.CSV_HEADER));
        try (FileSystem fs = FileSystem.newInstance(nameNode, conf)) {
            // The first write of a JVM also pays for the connection to the NameNode, class loading and the JIT
            // (0.2-0.9 s on top of 0.1 s for 2 MiB, measured): one small unrecorded file first.
            org.apache.hadoop.fs.Path warmUp = new org.apache.hadoop.fs.Path(dir, "warm-up");
            try (FSDataOutputStream stream = fs.create(warmUp, (short) job.replication())) {
                stream.write(buffer, 0, (int) Math.min(BUFFER, job.bytes()));
            }
            fs.delete(warmUp, false);
            for (int i = 0; i < job.files(); i++) {
                ClientMains.randomPause(random, job.minPause(), job.maxPause());
                org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(dir, String.format("f-%05d", i));
                long startMillis = System.currentTimeMillis();
                long start = System.nanoTime();
                String error = "";
                try (FSDataOutputStream stream = fs.create(path, (short) job.replication())) {
                    for (long left = job.bytes(); left > 0; left -= BUFFER) {
                        stream.write(buffer, 0, (int) Math.min(BUFFER, left));
                    }
                } catch (IOException e) {
                    error = e.toString();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                List<List<String>> blocks = new ArrayList<>();
                if (error.isEmpty()) {
                    try {
                        blocks = locations(fs, path, job);
                    } catch (IOException e) {
                        error = "written, but its block locations could not be read: " + e;
                    }
                }
                lines.add(new FileWrite(path.toUri().getPath(), job.bytes(), startMillis, seconds, blocks, error)
                        .toCsv());
            }
        }
        ClientMains.writeCsv(out, lines);
    }

    /**
     * The DataNodes holding each block of {@code path}. A close returns once one replica of the last block has
     * reported it; the others report asynchronously (incremental block reports), so wait up to 10 s for every
     * block to show its full replication, and return what the NameNode knows then.
     */
    private static List<List<String>> locations(FileSystem fs, org.apache.hadoop.fs.Path path, WriteJob job)
            throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            List<List<String>> blocks = new ArrayList<>();
            for (BlockLocation block : fs.getFileBlockLocations(path, 0, job.bytes())) {
                // Names are "IP:transfer port"; the DataNodes register with their testbed address.
                blocks.add(List.of(block.getNames()).stream()
                        .map(name -> name.substring(0, name.lastIndexOf(':')))
                        .toList());
            }
            if (blocks.stream().allMatch(b -> b.size() >= job.replication()) || System.nanoTime() > deadline) {
                return blocks;
            }
            ClientMains.sleep(100);
        }
    }
}
