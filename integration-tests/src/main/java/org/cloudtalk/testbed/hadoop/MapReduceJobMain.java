package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Timer;
import java.util.TimerTask;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.GenericOptionsParser;

/**
 * A MapReduce job client for the testbed, run in a host's namespace by {@link MapReduceJobs}:
 *
 * <ul>
 *   <li>{@code generate CSV DIR MAPS BYTES_PER_MAP}: a map-only job writing random 100-byte records (10-byte keys) as
 *       sequence files, {@code BYTES_PER_MAP} from each of {@code MAPS} maps — the input of a sort, like Hadoop's
 *       randomwriter;
 *   <li>{@code sort CSV IN OUT REDUCES}: sorts {@code IN} with identity maps and {@code REDUCES} reduces.
 * </ul>
 *
 * <p>Hadoop's generic options ({@code -D key=value}) may come first. {@code CSV} gets the job's outcome and time and,
 * for each launched map and reduce attempt of a job with reduces, its status, host, shuffle time (reduces), run time
 * and launch time, and the host of each application master attempt (kind {@code am}) (from the job's history file).
 * Exit code 0 when the job succeeded, 1 when it failed, 2 for bad arguments.
 */
public final class MapReduceJobMain {
    private static final int KEY_BYTES = 10;
    private static final int VALUE_BYTES = 90;
    /** How long the client lets its job run before it kills it (the testbed sets it below its own wait). */
    static final String TIMEOUT_MS = "testbed.job.timeout.ms";

    private MapReduceJobMain() {}

    public static void main(String[] command) throws Exception {
        Configuration conf = new Configuration();
        // Hadoop's generic options first (-D key=value for the job), as with any Hadoop tool.
        String[] args = new GenericOptionsParser(conf, command).getRemainingArgs();
        Job job;
        if (args.length == 5 && args[0].equals("generate")) {
            job = generate(conf, new Path(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]));
        } else if (args.length == 5 && args[0].equals("sort")) {
            job = sort(conf, new Path(args[2]), new Path(args[3]), Integer.parseInt(args[4]));
        } else {
            System.err.println("usage: generate CSV DIR MAPS BYTES_PER_MAP | sort CSV IN OUT REDUCES");
            System.exit(2);
            return;
        }
        // The job must not outlive its client: past the timeout the client kills it on the cluster.
        long timeoutMs = conf.getLong(TIMEOUT_MS, Long.MAX_VALUE);
        Timer killer = new Timer("kill-after-timeout", true);
        killer.schedule(
                new TimerTask() {
                    @Override
                    public void run() {
                        try {
                            System.err.println("job " + job.getJobID() + " killed after " + timeoutMs + " ms");
                            job.killJob();
                        } catch (IOException e) {
                            System.err.println("cannot kill job " + job.getJobID() + ": " + e);
                        }
                    }
                },
                Math.min(timeoutMs, Long.MAX_VALUE / 2));
        long start = System.nanoTime();
        // Verbose: failed attempts and their diagnostics go to the log (Job at INFO), for the testbed's report.
        boolean succeeded = job.waitForCompletion(true);
        double seconds = (System.nanoTime() - start) / 1e9;
        killer.cancel();
        List<String> rows = new ArrayList<>();
        if (succeeded && job.getNumReduceTasks() > 0) {
            // A history that cannot be read fails the run: a success without its reduces would read as "none ran".
            JobHistoryParser.JobInfo history = history(job, conf);
            for (JobHistoryParser.AMInfo am : history.getAMInfos()) {
                rows.add(String.format(Locale.ROOT, "am,RAN,%s,,,%d", am.getNodeManagerHost(), am.getStartTime()));
            }
            for (JobHistoryParser.TaskInfo task : history.getAllTasks().values()) {
                if (task.getTaskType() != TaskType.REDUCE && task.getTaskType() != TaskType.MAP) {
                    continue;
                }
                boolean reduce = task.getTaskType() == TaskType.REDUCE;
                for (JobHistoryParser.TaskAttemptInfo attempt :
                        task.getAllTaskAttempts().values()) {
                    if (attempt.getStartTime() <= 0) {
                        continue; // never launched (a speculative attempt the original beat): no host, no times
                    }
                    String shuffle = reduce
                            ? String.format(
                                    Locale.ROOT,
                                    "%.3f",
                                    (attempt.getShuffleFinishTime() - attempt.getStartTime()) / 1e3)
                            : "";
                    rows.add(String.format(
                            Locale.ROOT,
                            "%s,%s,%s,%s,%.3f,%d",
                            reduce ? "reduce" : "map",
                            attempt.getTaskStatus(),
                            attempt.getHostname(),
                            shuffle,
                            (attempt.getFinishTime() - attempt.getStartTime()) / 1e3,
                            attempt.getStartTime()));
                }
            }
        }
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(java.nio.file.Path.of(args[1])))) {
            csv.println("kind,status,host,shuffle_s,run_s,start_ms");
            csv.printf(Locale.ROOT, "job,%s,,,%.3f,%n", succeeded ? "SUCCEEDED" : "FAILED", seconds);
            rows.forEach(csv::println);
        }
        System.exit(succeeded ? 0 : 1);
    }

    private static Job generate(Configuration conf, Path dir, int maps, long bytesPerMap) throws IOException {
        FileSystem fs = FileSystem.get(conf);
        Path control = new Path(dir.getParent(), dir.getName() + "-control");
        try (FSDataOutputStream out = fs.create(control, true)) {
            for (int i = 0; i < maps; i++) {
                out.write((i + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        conf.setLong(RandomRecords.BYTES, bytesPerMap);
        Job job = Job.getInstance(conf, "generate " + dir);
        job.setInputFormatClass(NLineInputFormat.class);
        NLineInputFormat.addInputPath(job, control);
        NLineInputFormat.setNumLinesPerSplit(job, 1);
        job.setMapperClass(RandomRecords.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(BytesWritable.class);
        job.setOutputValueClass(BytesWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        SequenceFileOutputFormat.setOutputPath(job, dir);
        return job;
    }

    private static Job sort(Configuration conf, Path in, Path out, int reduces) throws IOException {
        Job job = Job.getInstance(conf, "sort " + in);
        // A job setting may name another format that reads the same files (CloudTalk's, wrapping this one).
        if (conf.get(MRJobConfig.INPUT_FORMAT_CLASS_ATTR) == null) {
            job.setInputFormatClass(SequenceFileInputFormat.class);
        }
        SequenceFileInputFormat.addInputPath(job, in);
        job.setMapperClass(Mapper.class);
        job.setNumReduceTasks(reduces);
        job.setOutputKeyClass(BytesWritable.class);
        job.setOutputValueClass(BytesWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        SequenceFileOutputFormat.setOutputPath(job, out);
        return job;
    }

    /**
     * The job's history, which its application master moves to the intermediate done directory as it ends (shortly
     * after the client sees the job succeed).
     */
    private static JobHistoryParser.JobInfo history(Job job, Configuration conf) throws Exception {
        FileSystem fs = FileSystem.get(conf);
        String user = System.getProperty("user.name");
        Path done = new Path(conf.get("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging")
                + "/history/done_intermediate/" + user);
        String prefix = job.getJobID().toString();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            if (fs.exists(done)) {
                for (FileStatus file : fs.listStatus(done)) {
                    String name = file.getPath().getName();
                    if (name.startsWith(prefix) && name.endsWith(".jhist")) {
                        return new JobHistoryParser(fs, file.getPath()).parse();
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no history file for " + prefix + " in " + done + " within 60 s");
            }
            Thread.sleep(500);
        }
    }

    /** Writes {@code BYTES} of random records, whatever its one input line says. */
    public static final class RandomRecords extends Mapper<LongWritable, Text, BytesWritable, BytesWritable> {
        static final String BYTES = "testbed.generate.bytes";

        @Override
        protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
            long bytes = context.getConfiguration().getLong(BYTES, 1 << 20);
            Random random = new Random(offset.get() * 31 + line.hashCode());
            byte[] key = new byte[KEY_BYTES];
            byte[] value = new byte[VALUE_BYTES];
            for (long written = 0; written < bytes; written += KEY_BYTES + VALUE_BYTES) {
                random.nextBytes(key);
                random.nextBytes(value);
                context.write(new BytesWritable(key), new BytesWritable(value));
            }
        }
    }
}
