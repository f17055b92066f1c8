package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;

/** MapReduce jobs run from a client JVM ({@link MapReduceJobMain}) in a testbed host, one at a time per call. */
public final class MapReduceJobs {
    private static final String HEAP = "256m";
    private static final AtomicInteger RUNS = new AtomicInteger();

    private MapReduceJobs() {}

    /**
     * A successful reduce attempt: where it ran, how long its shuffle took, its whole run, and when it started (epoch
     * milliseconds, as the application master recorded its launch).
     */
    public record Reduce(String host, double shuffleSeconds, double seconds, long startMillis) {
        public Reduce {
            requireNonNull(host, "host is null");
        }
    }

    /**
     * A job's outcome as its client saw it: success, time, its successful reduce attempts, the hosts of its successful
     * map attempts (one entry per attempt) and of its application master's attempts, and for a failed job the end of
     * the client's log.
     */
    public record Outcome(
            boolean succeeded,
            double seconds,
            List<Reduce> reduces,
            List<String> mapHosts,
            List<String> applicationMasterHosts,
            String diagnostics) {
        public Outcome {
            reduces = List.copyOf(reduces);
            mapHosts = List.copyOf(mapHosts);
            applicationMasterHosts = List.copyOf(applicationMasterHosts);
            requireNonNull(diagnostics, "diagnostics is null");
        }
    }

    /** {@code generate DIR MAPS BYTES_PER_MAP}: random records for a sort, written by a map-only job. */
    public static List<String> generate(String dir, int maps, long bytesPerMap) {
        return List.of("generate", dir, Integer.toString(maps), Long.toString(bytesPerMap));
    }

    /** {@code sort IN OUT REDUCES}: an identity sort with {@code reduces} reduces. */
    public static List<String> sort(String in, String out, int reduces) {
        return List.of("sort", in, out, Integer.toString(reduces));
    }

    static Outcome run(
            Testbed testbed,
            YarnCluster yarn,
            Host client,
            Path outDir,
            Duration timeout,
            Map<String, String> jobSettings,
            List<String> job) {
        String role = "mapreduce-client-" + client.index() + "-" + RUNS.incrementAndGet();
        Path conf = outDir.resolve(role);
        Path csv = outDir.resolve(role + ".csv");
        try {
            Files.createDirectories(conf);
            Map<String, String> settings = yarn.clientSettings();
            HadoopConf.write(conf.resolve("core-site.xml"), Map.of("fs.defaultFS", settings.get("fs.defaultFS")));
            HadoopConf.write(conf.resolve("yarn-site.xml"), settings);
            HadoopConf.write(conf.resolve("mapred-site.xml"), settings);
        } catch (IOException e) {
            throw new TestbedException("cannot write the job client's configuration: " + e.getMessage(), e);
        }
        List<String> args = new ArrayList<>();
        jobSettings.forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
        // The client kills its job a little before the testbed stops waiting, so no job outlives its run.
        args.addAll(List.of("-D", MapReduceJobMain.TIMEOUT_MS + "=" + Math.max(1000, timeout.toMillis() - 10_000)));
        args.add(job.get(0));
        args.add(csv.toString());
        args.addAll(job.subList(1, job.size()));
        StartedProcess process = testbed.processes()
                .startJava(
                        Optional.of(client),
                        role,
                        HEAP,
                        String.join(File.pathSeparator, conf.toString(), yarn.jobClasspath()),
                        MapReduceJobMain.class.getName(),
                        HadoopDaemons.jvmOptions(
                                testbed,
                                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                                "-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.mapreduce.Job=info"),
                        args);
        testbed.processes().awaitExit(process, "the job " + job, timeout);
        return read(csv, process);
    }

    private static Outcome read(Path csv, StartedProcess process) {
        List<String> rows;
        try {
            rows = Files.exists(csv) ? Files.readAllLines(csv) : List.of();
        } catch (IOException e) {
            throw new TestbedException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        if (rows.size() < 2) {
            throw new TestbedException(
                    "the job client " + process.role() + " ended without its results: " + process.logTail());
        }
        String[] job = rows.get(1).split(",", -1);
        List<Reduce> reduces = new ArrayList<>();
        List<String> mapHosts = new ArrayList<>();
        List<String> applicationMasterHosts = new ArrayList<>();
        for (String row : rows.subList(2, rows.size())) {
            String[] fields = row.split(",", -1);
            if (fields[0].equals("am")) {
                applicationMasterHosts.add(fields[2]);
                continue;
            }
            if (!fields[1].equals("SUCCEEDED")) {
                continue;
            }
            if (fields[0].equals("reduce")) {
                reduces.add(new Reduce(
                        fields[2],
                        Double.parseDouble(fields[3]),
                        Double.parseDouble(fields[4]),
                        Long.parseLong(fields[5])));
            } else {
                mapHosts.add(fields[2]);
            }
        }
        boolean succeeded = job[1].equals("SUCCEEDED");
        return new Outcome(
                succeeded,
                Double.parseDouble(job[4]),
                reduces,
                mapHosts,
                applicationMasterHosts,
                succeeded ? "" : process.logTail());
    }
}
