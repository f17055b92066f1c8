package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.ToolRunner;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.itchy.examples.WordCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bin/itchy} refuses before it needs a cluster, each in one line: names no job can have, inputs it would
 * read only in part, and a driver that runs out of heap. No HBase runs here: the refusals must come before it is asked.
 */
class ItchyToolTest {
    private static final String[] JOB = {
        "-D", "mapreduce.job.map.class=" + WordCount.TokenMapper.class.getName(),
        "-D", "mapreduce.job.reduce.class=" + WordCount.SumReducer.class.getName(),
        "-D", "mapreduce.job.output.key.class=" + Text.class.getName(),
        "-D", "mapreduce.job.output.value.class=" + IntWritable.class.getName()
    };

    @TempDir
    java.nio.file.Path temp;

    record ToolRun(int exit, String out, String err) {}

    @Test
    void aNameNoJobCanHaveIsAWrongCommandLineForEveryCommand() throws Exception {
        java.nio.file.Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("a.txt"), "a b\n");
        String out = temp.resolve("out").toString();
        String tooLong = "n".repeat(40_000);
        List<List<String>> refused = List.of(
                List.of("", "must not be empty"),
                List.of("  ", "must not begin or end with white space"),
                List.of("word-count ", "must not begin or end with white space"),
                List.of("a\nb", "must not hold control characters"),
                List.of(tooLong, "must be at most 32618 bytes in UTF-8, not 40000"));
        for (List<String> name : refused) {
            for (String[] command : List.of(
                    new String[] {"status", name.get(0)},
                    new String[] {"show", name.get(0)},
                    new String[] {"reclaim", name.get(0)},
                    new String[] {"compact", name.get(0), out},
                    concat(JOB, "run", name.get(0), "first", base.toString(), out))) {
                ToolRun run = tool(command);
                assertThat(run.exit()).as(run.err()).isEqualTo(Launchers.USAGE);
                assertThat(run.err().lines().findFirst().orElseThrow())
                        .contains("for NAME: a job name " + name.get(1))
                        .hasSizeLessThan(200);
            }
        }
        assertThat(temp.resolve("out")).doesNotExist();
    }

    /** An empty path had been an internal error (exit 70), a blank one a directory named " " in the current one. */
    @Test
    void anEmptyOrBlankPathIsAWrongCommandLine() throws Exception {
        java.nio.file.Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("a.txt"), "a b\n");
        String out = temp.resolve("out").toString();
        for (String path : List.of("", " ", "\t")) {
            String problem = path.isEmpty() ? "empty" : "blank";
            for (String[] command : List.of(
                    new String[] {"compact", "word-count", path},
                    concat(JOB, "run", "word-count", "first", path, out),
                    concat(JOB, "run", "word-count", "first", base.toString(), path))) {
                ToolRun run = tool(command);
                assertThat(run.exit()).as(run.err()).isEqualTo(Launchers.USAGE);
                assertThat(run.err())
                        .startsWith("itchy " + command[command[0].equals("compact") ? 0 : JOB.length]
                                + ": Invalid value '" + path + "' for ")
                        .contains(": a path must not be " + problem + "\n");
            }
        }
        assertThat(temp.resolve("out")).doesNotExist();
    }

    /** A path Hadoop cannot read (a colon in a relative path is taken for a scheme) had been an internal error. */
    @Test
    void aPathHadoopCannotReadIsAWrongCommandLine() throws Exception {
        for (String[] command : List.of(
                new String[] {"compact", "word-count", "a:b"},
                concat(
                        JOB,
                        "run",
                        "word-count",
                        "first",
                        "foo:bar",
                        temp.resolve("out").toString()))) {
            ToolRun run = tool(command);
            assertThat(run.exit()).as(run.err()).isEqualTo(Launchers.USAGE);
            assertThat(run.err()).contains(": Invalid value '").contains("Relative path in absolute URI");
        }
        assertThat(temp.resolve("out")).doesNotExist();
    }

    /** A table name HBase refuses had been an internal error for every command but run. */
    @Test
    void aBadTableNameIsABadSettingForEveryCommand() throws Exception {
        for (String[] command : List.of(
                new String[] {"-D", "itchy.hbase.table=a:b:c", "status", "word-count"},
                new String[] {"-D", "itchy.hbase.table=a:b:c", "show", "word-count"},
                new String[] {"-D", "itchy.hbase.table=a:b:c", "reclaim", "word-count"})) {
            ToolRun run = tool(command);
            assertThat(run.exit()).as(run.err()).isEqualTo(ItchyTool.EXIT_FAILED);
            assertThat(run.err()).startsWith("itchy: Invalid value a:b:c for itchy.hbase.table: not an HBase table");
        }
    }

    /** Hadoop's text input fails on a subdirectory; skipping it had left its files out of the result. */
    @Test
    void anInputDirectoryHoldingADirectoryIsRefused() throws Exception {
        java.nio.file.Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("a.txt"), "a b\n");
        Files.writeString(Files.createDirectories(base.resolve("2026")).resolve("b.txt"), "c d\n");
        Files.createDirectories(base.resolve("_logs")); // hidden, as for Hadoop: no refusal
        ToolRun run = tool(concat(JOB, "run", "nested", "first", base.toString(), temp.resolve("out") + ""));
        assertThat(run.exit()).isEqualTo(ItchyTool.EXIT_FAILED);
        assertThat(run.err())
                .isEqualTo("itchy: input " + base + " holds a directory, file:" + base.resolve("2026")
                        + "; Itchy reads the files directly in an input directory: name that directory as an input"
                        + " of its own\n");
        assertThat(temp.resolve("out")).doesNotExist();
    }

    /** A first job's map sample runs in the driver: one huge line had ended it with a stack trace. */
    @Test
    void aDriverOutOfMemoryIsOneLine() throws Exception {
        java.nio.file.Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("a.txt"), "a b\n");
        String[] job = JOB.clone();
        job[1] = "mapreduce.job.map.class=" + OutOfMemoryMapper.class.getName();
        ToolRun run = tool(concat(job, "run", "oom", "first", base.toString(), temp.resolve("out") + ""));
        assertThat(run.exit()).isEqualTo(ItchyTool.EXIT_FAILED);
        assertThat(run.err())
                .startsWith("itchy: out of memory (Java heap space) in bin/itchy's JVM, whose heap is at most ")
                .endsWith("Give it more with CLOUDTALK_JAVA_OPTS=-Xmx<size>\n")
                .doesNotContain("\tat ");
    }

    /** Stands in for a mapper given one line larger than the driver's heap. */
    public static final class OutOfMemoryMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
        @Override
        protected void map(LongWritable offset, Text line, Context context) {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    private static String[] concat(String[] options, String... command) {
        return Stream.concat(Stream.of(options), Stream.of(command)).toArray(String[]::new);
    }

    private static ToolRun tool(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = ToolRunner.run(new Configuration(), new ItchyTool(o, e), args);
        }
        return new ToolRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
