package org.cloudtalk.itchy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.JobRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The operator's view of an Itchy job: {@code status} (technique, why, datasets, increments), {@code show} (the
 * current full result: base output overlaid by the committed differentials), {@code compact} (that result written
 * as one output), {@code reclaim} (uncommitted runs' cells deleted) and {@code run} (an unchanged job, described by
 * Hadoop's own keys, as a first job or an increment). A Hadoop {@link Tool}, so generic options ({@code -D key=value}, {@code -conf file}) go before the
 * command as for any Hadoop command; the cluster comes from the Hadoop and HBase configuration on the classpath. The
 * command itself is parsed by picocli, like every CloudTalk launcher (docs/cli.md).
 */
@Command(
        name = "itchy",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        description = {
            "An Itchy job's state and current result. Generic Hadoop options (-D itchy.hbase.table=T, -conf FILE) go"
                    + " before the command; bin/itchy bench runs the benchmark (bin/itchy --help)."
        },
        subcommands = {
            ItchyTool.Status.class,
            ItchyTool.Show.class,
            ItchyTool.Compact.class,
            ItchyTool.Reclaim.class,
            ItchyTool.Run.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the command failed (the message says why)", "64:wrong command line"})
public final class ItchyTool extends Configured implements Tool, Runnable {
    static final int EXIT_FAILED = 1;

    private final PrintStream out;
    private final PrintStream err;

    public ItchyTool(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws Exception {
        int exit;
        try {
            exit = ToolRunner.run(HBaseConfiguration.create(), new ItchyTool(System.out, System.err), args);
        } catch (RuntimeException e) {
            // Only Hadoop's generic options get here (the command's own failures are handled in run): a -conf file
            // that is not valid XML, say. The user's settings, said in one line.
            Throwable cause = e.getCause() == null ? e : e.getCause();
            System.err.println("itchy: cannot use the configuration: "
                    + String.valueOf(cause.getMessage()).replaceAll("\\s+", " "));
            exit = Launchers.CONFIG;
        }
        System.exit(exit);
    }

    /** {@code args} are what is left after Hadoop's generic options. */
    @Override
    public int run(String[] args) {
        CommandLine line =
                Launchers.commandLine(this).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        CommandLine.IExecutionExceptionHandler defects = line.getExecutionExceptionHandler();
        // A job that is not there, or a destination that is: the user's situation, said in one line.
        line.setExecutionExceptionHandler((e, failed, parsed) -> {
            if (e instanceof ItchyException || e instanceof IOException) {
                failed.getErr().println("itchy: " + e.getMessage());
                failed.getErr().flush();
                return EXIT_FAILED;
            }
            return defects.handleExecutionException(e, failed, parsed);
        });
        try {
            return line.execute(args);
        } catch (OutOfMemoryError e) {
            // The driver's heap is small and some of its work holds user data whole: a first job's map sample reads
            // whole lines (one line of a binary file can be hundreds of MB), show and compact the whole result. The
            // failed allocation is garbage by now, so there is room to say so.
            err.println("itchy: out of memory (" + e.getMessage() + ") in bin/itchy's JVM, whose heap is at most "
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB: an input line or a result too large"
                    + " for it? Give it more with CLOUDTALK_JAVA_OPTS=-Xmx<size>");
            err.flush();
            return EXIT_FAILED;
        }
    }

    @Spec
    private CommandSpec spec;

    /** Without a command: say which there are. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a command is needed: status, show, compact, reclaim or run");
    }

    /** The settings, checked for every command (a bad table name is the user's, not an internal error). */
    Configuration conf() {
        ItchyConf.validate(getConf());
        return getConf();
    }

    /** A name no job can have (empty, say, from an unset shell variable) is a wrong command line, said before HBase. */
    static void checkName(CommandSpec spec, String name) {
        ItchyStore.nameProblem(name).ifPresent(problem -> {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value '" + ItchyStore.abbreviated(name) + "' for NAME: " + problem);
        });
    }

    /**
     * A path argument: an empty one Hadoop's Path refuses with an IllegalArgumentException (an internal error), and a
     * blank one, an unset variable in quotes, would name a directory " " in the current one.
     */
    static Path path(CommandSpec spec, String label, String value) {
        if (value.isBlank()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "Invalid value '" + value + "' for " + label + ": a path must not be "
                            + (value.isEmpty() ? "empty" : "blank"));
        }
        try {
            return new Path(value);
        } catch (IllegalArgumentException e) { // e.g. a colon in a relative path, which Hadoop reads as a scheme
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value '" + value + "' for " + label + ": " + e.getMessage());
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "The job's technique and why, datasets," + " committed increments and outputs.")
    static final class Status implements Callable<Integer> {
        @CommandLine.ParentCommand
        private ItchyTool tool;

        @Parameters(paramLabel = "NAME", description = "the Itchy job's name")
        private String name;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkName(spec, name);
            JobRecord record = ItchyJob.recordOf(tool.conf(), name)
                    .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded"));
            PrintStream out = tool.out;
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
            return 0;
        }
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "The current result: key<TAB>value, in" + " key order.")
    static final class Show implements Callable<Integer> {
        @CommandLine.ParentCommand
        private ItchyTool tool;

        @Parameters(paramLabel = "NAME", description = "the Itchy job's name")
        private String name;

        @Option(names = "--limit", paramLabel = "N", description = "at most N records")
        private Long limit;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkName(spec, name);
            if (limit != null && limit < 0) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Invalid value " + limit + " for --limit: must not be negative");
            }
            long shown = 0;
            long most = limit == null ? Long.MAX_VALUE : limit;
            for (Map.Entry<WritableComparable, Writable> entry :
                    ItchyOutput.current(tool.conf(), name).entrySet()) {
                if (shown++ == most) {
                    break;
                }
                tool.out.println(entry.getKey() + "\t" + entry.getValue());
            }
            return 0;
        }
    }

    @Command(
            name = "compact",
            mixinStandardHelpOptions = true,
            description = "Writes the current result as one" + " SequenceFile output into a new directory.")
    static final class Compact implements Callable<Integer> {
        @CommandLine.ParentCommand
        private ItchyTool tool;

        @Parameters(index = "0", paramLabel = "NAME", description = "the Itchy job's name")
        private String name;

        @Parameters(index = "1", paramLabel = "DESTINATION", description = "a directory that does not exist yet")
        private String destination;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkName(spec, name);
            long keys = ItchyOutput.compact(tool.conf(), name, path(spec, "DESTINATION", destination));
            tool.out.println("compacted " + keys + " keys of " + name + " into " + destination);
            return 0;
        }
    }

    @Command(
            name = "reclaim",
            mixinStandardHelpOptions = true,
            description =
                    "Deletes the HBase cells that" + " uncommitted (failed or abandoned) runs of the job left behind.")
    static final class Reclaim implements Callable<Integer> {
        @CommandLine.ParentCommand
        private ItchyTool tool;

        @Parameters(paramLabel = "NAME", description = "the Itchy job's name")
        private String name;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkName(spec, name);
            long cells = ItchyJob.reclaim(tool.conf(), name);
            tool.out.println("deleted " + cells + " cells of uncommitted runs of " + name);
            return 0;
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "The zero-code drop-in: runs an unchanged job, described by Hadoop's own keys (-D"
                        + " mapreduce.job.map.class=C -D mapreduce.job.reduce.class=C -D"
                        + " mapreduce.job.output.key.class=C ... -D itchy.mode=auto, before the command), as its"
                        + " first job or as an increment."
            })
    static final class Run implements Callable<Integer> {
        @CommandLine.ParentCommand
        private ItchyTool tool;

        @Parameters(index = "0", paramLabel = "NAME", description = "the Itchy job's name")
        private String name;

        @Parameters(index = "1", paramLabel = "KIND", description = "first or increment")
        private String kind;

        @Parameters(index = "2..*", arity = "2..*", paramLabel = "PATH", description = "input paths, then the output")
        private List<String> paths;

        @Spec
        private CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkName(spec, name);
            if (!kind.equals("first") && !kind.equals("increment")) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "Invalid value " + kind + " for KIND: expected first or increment");
            }
            List<Path> given =
                    paths.stream().map(path -> path(spec, "PATH", path)).toList();
            boolean first = kind.equals("first");
            List<Path> inputs = given.subList(0, given.size() - 1);
            Path output = given.get(given.size() - 1);
            ItchyJob job = ItchyJob.from(Job.getInstance(tool.conf(), name));
            try {
                ItchyJob.RunReport report = first ? job.runFirst(inputs, output) : job.runIncrement(inputs, output);
                tool.out.println((first ? "first job" : "increment") + " of " + name + " done with " + report.mode()
                        + " (" + report.decision() + "), output " + report.output());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ItchyException("interrupted while running " + name, e);
            }
            return 0;
        }
    }
}
