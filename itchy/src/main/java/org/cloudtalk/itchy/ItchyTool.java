package org.cloudtalk.itchy;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.cloudtalk.itchy.store.JobRecord;

/**
 * The operator's view of an Itchy job: {@code status} (technique, why, datasets, increments), {@code show} (the
 * current full result: base output overlaid by the committed differentials) and {@code compact} (that result written
 * as one output). A Hadoop {@link Tool}, so {@code -D key=value} and {@code -conf file} work as for any Hadoop
 * command; the cluster comes from the Hadoop and HBase configuration on the classpath.
 */
public final class ItchyTool extends Configured implements Tool {
    static final int EXIT_FAILED = 1;
    /** Wrong command line: EX_USAGE, as every launcher (docs/cli.md). */
    static final int EXIT_USAGE = 64;

    private static final String USAGE =
            """
            usage: itchy status NAME
                   itchy show NAME [--limit N]
                   itchy compact NAME DESTINATION
                   itchy reclaim NAME
                   itchy run NAME first|increment INPUT... OUTPUT
            (run: an unchanged job's classes as Hadoop's own keys, e.g. -D mapreduce.job.map.class=C
             -D mapreduce.job.reduce.class=C -D mapreduce.job.output.key.class=C -D itchy.mode=auto)
            (generic Hadoop options such as -D itchy.hbase.table=T go before the command)""";

    private final PrintStream out;
    private final PrintStream err;

    public ItchyTool(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(HBaseConfiguration.create(), new ItchyTool(System.out, System.err), args));
    }

    @Override
    public int run(String[] args) {
        if (args.length < 2) {
            err.println(USAGE);
            return EXIT_USAGE;
        }
        String name = args[1];
        try {
            switch (args[0]) {
                case "status" -> {
                    if (args.length != 2) {
                        return usage("status takes only the job name");
                    }
                    status(name);
                }
                case "show" -> {
                    long limit = Long.MAX_VALUE;
                    if (args.length == 4 && args[2].equals("--limit")) {
                        limit = parseLimit(args[3]);
                        if (limit < 0) {
                            return usage("--limit needs a non-negative number, not '" + args[3] + "'");
                        }
                    } else if (args.length != 2) {
                        return usage("show takes the job name and optionally --limit N");
                    }
                    show(name, limit);
                }
                case "compact" -> {
                    if (args.length != 3) {
                        return usage("compact takes the job name and a destination directory");
                    }
                    long keys = ItchyOutput.compact(getConf(), name, new Path(args[2]));
                    out.println("compacted " + keys + " keys of " + name + " into " + args[2]);
                }
                case "reclaim" -> {
                    if (args.length != 2) {
                        return usage("reclaim takes only the job name");
                    }
                    long cells = ItchyJob.reclaim(getConf(), name);
                    out.println("deleted " + cells + " cells of uncommitted runs of " + name);
                }
                case "run" -> {
                    if (args.length < 5 || !(args[2].equals("first") || args[2].equals("increment"))) {
                        return usage("run takes the job name, first or increment, input paths and an output path");
                    }
                    run(name, args[2].equals("first"), Arrays.copyOfRange(args, 3, args.length));
                }
                default -> {
                    return usage("unknown command '" + args[0] + "'");
                }
            }
            return 0;
        } catch (ItchyException | IOException e) {
            err.println("itchy: " + e.getMessage());
            return EXIT_FAILED;
        }
    }

    /** The zero-code drop-in: the job as Hadoop's own configuration keys describe it, through {@link ItchyJob#from}. */
    private void run(String name, boolean first, String[] paths) throws IOException {
        List<Path> inputs =
                Arrays.stream(paths, 0, paths.length - 1).map(Path::new).toList();
        Path output = new Path(paths[paths.length - 1]);
        ItchyJob job = ItchyJob.from(Job.getInstance(getConf(), name));
        try {
            ItchyJob.RunReport report = first ? job.runFirst(inputs, output) : job.runIncrement(inputs, output);
            out.println((first ? "first job" : "increment") + " of " + name + " done with " + report.mode() + " ("
                    + report.decision() + "), output " + report.output());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ItchyException("interrupted while running " + name, e);
        }
    }

    private void status(String name) throws IOException {
        JobRecord record = ItchyJob.recordOf(getConf(), name)
                .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded"));
        out.println("job         " + record.name());
        out.println("technique   " + record.mode());
        out.println("chosen by   " + record.decision());
        out.println("signature   " + record.signature());
        out.println("increments  " + record.committed() + " committed");
        for (JobRecord.Dataset dataset : record.datasets()) {
            out.printf(
                    "dataset %-3d %s (%d bytes, %s)%n",
                    dataset.id(),
                    dataset.path(),
                    dataset.length(),
                    dataset.increment() == 0 ? "base" : "increment " + dataset.increment());
        }
        for (int i = 0; i <= record.committed(); i++) {
            out.println("output " + (i == 0 ? "base " : "inc " + i + " ") + " "
                    + record.outputs().get(i));
        }
    }

    private void show(String name, long limit) throws IOException {
        long shown = 0;
        for (Map.Entry<WritableComparable, Writable> entry :
                ItchyOutput.current(getConf(), name).entrySet()) {
            if (shown++ == limit) {
                break;
            }
            out.println(entry.getKey() + "\t" + entry.getValue());
        }
    }

    private static long parseLimit(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private int usage(String problem) {
        err.println("itchy: " + problem);
        err.println(USAGE);
        return EXIT_USAGE;
    }
}
