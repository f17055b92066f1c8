package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.itchy.examples.DataGenerator;
import org.cloudtalk.itchy.examples.ExampleJobs;
import org.cloudtalk.itchy.examples.Sales;
import org.cloudtalk.itchy.examples.WordCount;
import org.cloudtalk.itchy.mo.TouchedKeys;
import org.cloudtalk.itchy.store.BulkCells;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.task.ItchyOutputFormat;
import org.cloudtalk.itchy.task.TaskFailure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chapter's §5.5 as tests, on a real HBase mini cluster and MiniDFSCluster (one for the class): after every
 * increment of a chain of three, Itchy's current result equals a full recompute over the base input and all appends,
 * for every example job and technique.
 */
class ItchyTest {
    private static MiniClusters clusters;
    private static FileSystem fs;

    /** How to build one example job, and how to generate its input. */
    record Example(String id, BiFunction<Configuration, String, ItchyJob> job, Generator data) {
        @Override
        public String toString() {
            return id;
        }
    }

    interface Generator {
        void write(FileSystem fs, Path file, int rows, long seed) throws Exception;
    }

    static final Example WORD_COUNT = new Example(
            "wordcount",
            ExampleJobs::wordCount,
            (fs, file, rows, seed) -> DataGenerator.text(fs, file, rows, 3000, seed));
    static final Example JOB_AVG = new Example(
            "jobavg", ExampleJobs::jobAvg, (fs, file, rows, seed) -> DataGenerator.sales(fs, file, rows, 200, seed));
    static final Example JOB_SUM = new Example(
            "jobsum", ExampleJobs::jobSum, (fs, file, rows, seed) -> DataGenerator.sales(fs, file, rows, 200, seed));
    /** 200 partkeys: a key gathers ~15 base rows, and appends hit keys that have some. */
    static final Example JOB1 = new Example(
            "job1",
            ExampleJobs::job1,
            (fs, file, rows, seed) ->
                    DataGenerator.lineitem(fs, file, rows, seed, new DataGenerator.Cardinality(200, 3)));

    static final Example JOB2 = new Example("job2", ExampleJobs::job2, DataGenerator::lineitem);

    /** Sums per tag over records that may carry several tags; its tests write their own input. */
    static final Example TAGS = tagsExample("tags", Sales.SumReducer.class, LongWritable.class);

    /** A job over TagMapper's records with the given reducer; its tests write their own input. */
    static Example tagsExample(
            String id, Class<? extends org.apache.hadoop.mapreduce.Reducer> reducer, Class<?> value) {
        return new Example(
                id,
                (conf, name) -> ItchyJob.create(conf, name)
                        .mapper(TagMapper.class)
                        .reducer(reducer)
                        .mapOutput(Text.class, LongWritable.class)
                        .output(Text.class, value)
                        .reducers(2),
                (fs, file, rows, seed) -> {
                    throw new UnsupportedOperationException("tests of " + id + " write their own input");
                });
    }

    @BeforeAll
    static void start() throws Exception {
        clusters = MiniClusters.start();
        fs = clusters.fileSystem();
    }

    @AfterAll
    static void stop() throws Exception {
        clusters.close();
    }

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of(WORD_COUNT, ItchyMode.MERGE),
                Arguments.of(WORD_COUNT, ItchyMode.MO),
                Arguments.of(WORD_COUNT, ItchyMode.QMC),
                Arguments.of(JOB_AVG, ItchyMode.QMC),
                Arguments.of(JOB_AVG, ItchyMode.MO),
                Arguments.of(JOB_SUM, ItchyMode.MERGE),
                Arguments.of(JOB1, ItchyMode.MO),
                Arguments.of(JOB1, ItchyMode.QMC),
                Arguments.of(JOB2, ItchyMode.QMC));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void everyIncrementEqualsAFullRecompute(Example example, ItchyMode mode) throws Exception {
        String name = example.id() + "-" + mode.name().toLowerCase();
        Path root = new Path("/itchy-test/" + name);
        Configuration conf = conf(mode);
        List<Path> inputs = new ArrayList<>();
        Path base = new Path(root, "base");
        example.data().write(fs, new Path(base, "a.txt"), 1500, 11);
        example.data().write(fs, new Path(base, "b.txt"), 1500, 12);
        inputs.add(base);
        ItchyJob job = example.job().apply(conf, name);
        assertThat(job.runFirst(List.of(base), new Path(root, "out-0")).mode()).isEqualTo(mode);
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(recompute(example, inputs, new Path(root, "full-0")));

        for (int increment = 1; increment <= 3; increment++) {
            Path appended = new Path(root, "append-" + increment);
            example.data().write(fs, new Path(appended, "part.txt"), 40, 100 + increment);
            inputs.add(appended);
            Map<WritableComparable, Writable> before = ItchyOutput.current(conf, name);
            ItchyJob.RunReport report = job.runIncrement(List.of(appended), new Path(root, "out-" + increment));
            Map<WritableComparable, Writable> full = recompute(example, inputs, new Path(root, "full-" + increment));
            assertThat(ItchyOutput.current(conf, name))
                    .as("after increment %d", increment)
                    .isEqualTo(full);
            // The differential output holds exactly the keys whose value changed.
            Map<WritableComparable, Writable> differential = ItchyOutput.read(conf, new Path(root, "out-" + increment));
            for (Map.Entry<WritableComparable, Writable> entry : full.entrySet()) {
                boolean changed = !entry.getValue().equals(before.get(entry.getKey()));
                if (changed) {
                    assertThat(differential).containsEntry(entry.getKey(), entry.getValue());
                }
            }
            assertThat(differential.keySet()).isSubsetOf(full.keySet());
            if (mode == ItchyMode.QMC) {
                // QMC re-reads base records (never more than exist), MO and Merge never touch the base input.
                assertThat(report.counter(ItchyCounters.BASE_RECORDS_REREAD))
                        .isPositive()
                        .isLessThanOrEqualTo(3000L + 40L * (increment - 1));
            } else {
                if (mode == ItchyMode.MO) {
                    // The map tasks' key notes put every key's stored values ahead of the reducers.
                    assertThat(report.counter(ItchyCounters.STORED_VALUES_READ)).isPositive();
                    assertThat(report.counter(ItchyCounters.STORED_ROWS_READ_DIRECTLY))
                            .isZero();
                }
                assertThat(report.counter(ItchyCounters.MAP_INPUT_RECORDS)).isEqualTo(40);
                // Only the appended records are read, every byte of them once.
                assertThat(report.counter(ItchyCounters.INPUT_BYTES_MAPPED))
                        .isEqualTo(
                                fs.getFileStatus(new Path(appended, "part.txt")).getLen());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC"})
    void anOrdinaryJobGainsItchyWithOneLine(ItchyMode mode) throws Exception {
        String name = "drop-in-" + mode.name().toLowerCase();
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        WORD_COUNT.data().write(fs, new Path(base, "a.txt"), 1500, 31);
        // The user's driver as it was before Itchy: a configured Job, with the mode as a -D option would set it.
        Job job = Job.getInstance(conf(mode), name);
        job.setMapperClass(WordCount.TokenMapper.class);
        job.setCombinerClass(WordCount.SumReducer.class);
        job.setReducerClass(WordCount.SumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(2);
        FileInputFormat.setInputPaths(job, base);
        FileOutputFormat.setOutputPath(job, new Path(root, "out-0"));

        ItchyJob itchy = ItchyJob.from(job);
        assertThat(itchy.runFirst(List.of(FileInputFormat.getInputPaths(job)), FileOutputFormat.getOutputPath(job))
                        .mode())
                .isEqualTo(mode);
        Path appended = new Path(root, "append-1");
        WORD_COUNT.data().write(fs, new Path(appended, "part.txt"), 40, 32);
        itchy.runIncrement(List.of(appended), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf(mode), name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full-1")));
    }

    @Test
    void anUnchangedJobRunsFromTheCommandLineWithItsClassesAsOptions() throws Exception {
        String name = "tool-run";
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        Path appended = new Path(root, "append-1");
        WORD_COUNT.data().write(fs, new Path(base, "a.txt"), 1500, 41);
        WORD_COUNT.data().write(fs, new Path(appended, "part.txt"), 40, 42);
        Configuration conf = conf(ItchyMode.AUTO);
        String[] job = {
            "-D", "mapreduce.job.map.class=" + WordCount.TokenMapper.class.getName(),
            "-D", "mapreduce.job.combine.class=" + WordCount.SumReducer.class.getName(),
            "-D", "mapreduce.job.reduce.class=" + WordCount.SumReducer.class.getName(),
            "-D", "mapreduce.job.output.key.class=" + Text.class.getName(),
            "-D", "mapreduce.job.output.value.class=" + IntWritable.class.getName(),
            "-D", "mapreduce.job.reduces=2",
            "-D", "itchy.mode=mo"
        };
        ToolRun first = tool(conf, concat(job, "run", name, "first", base.toString(), root + "/out-0"));
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("first job of tool-run done with MO");
        ToolRun increment = tool(conf, concat(job, "run", name, "increment", appended.toString(), root + "/out-1"));
        assertThat(increment.exit()).as(increment.err()).isZero();
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full-1")));

        ToolRun noMapper = tool(conf, "run", "tool-run-bare", "first", base.toString(), root + "/bare");
        assertThat(noMapper.exit()).isEqualTo(ItchyTool.EXIT_FAILED);
        assertThat(noMapper.err()).contains("must set its own mapper and reducer");
        assertThat(tool(conf, "run", name, "again", base.toString(), root + "/x")
                        .exit())
                .isEqualTo(Launchers.USAGE);
    }

    /**
     * What {@code bin/itchy run} is told that cannot work is refused up front in one line naming the setting: a class
     * not on the classpath or of the wrong kind (Hadoop's own RuntimeException had been an internal error), a number
     * of reducers that is not a number or 0, an empty path.
     */
    @Test
    void theToolRefusesABadJobDescriptionInOneLine() throws Exception {
        Configuration conf = conf(ItchyMode.AUTO);
        String base = "/itchy-test/tool-bad/base";
        WORD_COUNT.data().write(fs, new Path(base, "a.txt"), 10, 43);
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(
                "mapreduce.job.map.class=com.nope.Mapper",
                "Invalid value com.nope.Mapper for mapreduce.job.map.class: no such class on the classpath");
        refusals.put(
                "mapreduce.job.reduce.class=java.lang.String",
                "Invalid value java.lang.String for mapreduce.job.reduce.class: not a org.apache.hadoop.mapreduce.Reducer");
        refusals.put(
                "itchy.merge.class=com.nope.Merge",
                "Invalid value com.nope.Merge for itchy.merge.class: no such class on the classpath");
        refusals.put(
                "mapreduce.job.reduces=abc",
                "Invalid value abc for mapreduce.job.reduces: must be a whole number from 1 to 2147483647");
        refusals.put(
                "mapreduce.job.reduces=0",
                "Invalid value 0 for mapreduce.job.reduces: must be a whole number from 1 to 2147483647");
        refusals.put(
                "itchy.sample.records=3000000000",
                "Invalid value 3000000000 for itchy.sample.records: must be a whole number from 1 to 2147483647");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            ToolRun run = tool(
                    conf,
                    "-D",
                    "mapreduce.job.map.class=" + WordCount.TokenMapper.class.getName(),
                    "-D",
                    "mapreduce.job.reduce.class=" + WordCount.SumReducer.class.getName(),
                    "-D",
                    "mapreduce.job.output.key.class=" + Text.class.getName(),
                    "-D",
                    "mapreduce.job.output.value.class=" + IntWritable.class.getName(),
                    "-D",
                    refusal.getKey(),
                    "run",
                    "tool-bad",
                    "first",
                    base,
                    "/itchy-test/tool-bad/out");
            assertThat(run.exit()).as(refusal.getKey()).isEqualTo(ItchyTool.EXIT_FAILED);
            assertThat(run.err()).as(refusal.getKey()).isEqualTo("itchy: " + refusal.getValue() + "\n");
        }
        ToolRun emptyPath = tool(conf, "run", "tool-bad", "first", "", "/itchy-test/tool-bad/out");
        assertThat(emptyPath.exit()).isEqualTo(Launchers.USAGE);
        assertThat(emptyPath.err()).contains("Invalid value '' for PATH: a path must not be empty");
    }

    private static String[] concat(String[] options, String... command) {
        return Stream.concat(Stream.of(options), Stream.of(command)).toArray(String[]::new);
    }

    @Test
    void aJobItchyCannotReReadIsRefusedWithItsReason() throws Exception {
        Job job = Job.getInstance(conf(ItchyMode.AUTO), "sequence-input");
        job.setMapperClass(WordCount.TokenMapper.class);
        job.setReducerClass(WordCount.SumReducer.class);
        job.setInputFormatClass(SequenceFileInputFormat.class);
        assertThatThrownBy(() -> ItchyJob.from(job))
                .isInstanceOf(ItchyException.class)
                .hasMessage("Itchy reads text input (org.apache.hadoop.mapreduce.lib.input.TextInputFormat); job"
                        + " sequence-input reads with org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat");
        Job identity = Job.getInstance(conf(ItchyMode.AUTO), "identity");
        assertThatThrownBy(() -> ItchyJob.from(identity))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("must set its own mapper and reducer");
    }

    @Test
    void qmcReReadsExactlyTheBaseRecordsOfTouchedKeys() throws Exception {
        Configuration conf = conf(ItchyMode.QMC);
        SalesRun run = salesFirstAndIncrement("qmc-exact", conf, 4000, 5, 400, 21);
        Set<String> touched = categories(run.appended());
        long relevant = lines(run.base()).stream()
                .filter(line -> touched.contains(line.split(",")[1]))
                .count();
        assertThat(run.report().counter(ItchyCounters.BASE_RECORDS_REREAD))
                .isEqualTo(relevant)
                .isLessThan(4000 / 20);

        // Many keys touched: the offsets come from a scan of the job's rows instead of Gets; same exact re-read.
        Path root = new Path("/itchy-test/qmc-exact");
        Path second = new Path(root, "append-2/part.txt");
        DataGenerator.sales(fs, second, 150, 400, 23);
        ItchyJob.RunReport scanned = run.job().runIncrement(List.of(second.getParent()), new Path(root, "out-2"));
        Set<String> touchedAgain = categories(second);
        List<String> earlier = new ArrayList<>(lines(run.base()));
        earlier.addAll(lines(run.appended()));
        long relevantAgain = earlier.stream()
                .filter(line -> touchedAgain.contains(line.split(",")[1]))
                .count();
        assertThat(run.report().phases())
                .extracting(ItchyJob.Phase::name)
                .contains("input checks", "offset lookups by key");
        assertThat(scanned.phases()).extracting(ItchyJob.Phase::name).contains("offset lookups by scan");
        assertThat(scanned.counter(ItchyCounters.BASE_RECORDS_REREAD)).isEqualTo(relevantAgain);
        assertThat(ItchyOutput.current(conf, "qmc-exact"))
                .isEqualTo(recompute(
                        JOB_AVG,
                        List.of(run.base().getParent(), run.appended().getParent(), second.getParent()),
                        new Path(root, "full-2")));
    }

    /**
     * A QMC increment re-reads the relevant records of many base files in few tasks; the user's mapper still runs once
     * per file with that file as its split, so a mapper that weighs records by their input file stays right.
     */
    @Test
    void qmcReReadsManyBaseFilesInFewTasksEachMappedAsItsOwnSplit() throws Exception {
        Path root = new Path("/itchy-test/qmc-grouped");
        List<Path> files = new ArrayList<>();
        for (int file = 0; file < 6; file++) {
            files.add(new Path(root, "base/b" + file + ".txt"));
            writeTags(files.get(file), 200, 1, 300 + file, new TagFormat("\n", false));
        }
        List<Path> inputs = new ArrayList<>(List.of(new Path(root, "base")));
        BiFunction<Configuration, String, ItchyJob> byFile = (conf, name) -> ItchyJob.create(conf, name)
                .mapper(FileTagMapper.class)
                .reducer(Sales.SumReducer.class)
                .mapOutput(Text.class, LongWritable.class)
                .output(Text.class, LongWritable.class)
                .reducers(2);
        Configuration conf = conf(ItchyMode.QMC);
        byFile.apply(conf, "qmc-grouped").runFirst(inputs, new Path(root, "out-0"));
        Configuration taskPerFile = new Configuration(conf);
        taskPerFile.setInt(ItchyConf.TASK_RECORDS, 1);
        for (int increment = 1; increment <= 2; increment++) {
            Path appended = new Path(root, "append-" + increment + "/b" + increment + ".txt");
            writeTags(appended, 30, 1, 310 + increment, new TagFormat("\n", false));
            Set<String> touched = new HashSet<>();
            lines(appended).forEach(line -> touched.add(line.split(",")[0]));
            long filesReRead = files.stream()
                    .filter(file ->
                            uncheckedLines(file).stream().anyMatch(line -> touched.contains(line.split(",")[0])))
                    .count();
            files.add(appended);
            inputs.add(appended.getParent());
            // By default the base files' relevant records take one task; at one record per task, a task per file.
            ItchyJob.RunReport report = byFile.apply(increment == 1 ? conf : taskPerFile, "qmc-grouped")
                    .runIncrement(List.of(appended.getParent()), new Path(root, "out-" + increment));
            // Each of the two reducers fetches the output of every map task (the local runner counts no tasks).
            assertThat(report.counter(org.apache.hadoop.mapreduce.TaskCounter.SHUFFLED_MAPS) / 2)
                    .as("map tasks of increment %d", increment)
                    .isEqualTo(increment == 1 ? 2 : filesReRead + 1);
            assertThat(filesReRead).isGreaterThan(1);
            Configuration plain = new Configuration(conf);
            plain.set(ItchyConf.MODE, ItchyMode.OFF.name());
            byFile.apply(plain, "full-grouped-" + increment).runFirst(inputs, new Path(root, "full-" + increment));
            assertThat(ItchyOutput.current(conf, "qmc-grouped"))
                    .as("after increment %d", increment)
                    .isEqualTo(ItchyOutput.read(plain, new Path(root, "full-" + increment)));
        }
    }

    @Test
    void moReadsKeysItsMapsDidNotNoteOneByOne() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        conf.setInt(ItchyConf.MO_TOUCHED_KEYS_MAX, 3);
        SalesRun run = salesFirstAndIncrement("mo-capped-notes", conf, 2000, 60, 100, 31);
        // One map task noted 3 keys; the reducers read the others' values when they reached them.
        assertThat(run.report().counter(ItchyCounters.STORED_ROWS_READ_DIRECTLY))
                .isEqualTo(categories(run.appended()).size() - 3L);
        assertThat(ItchyOutput.current(conf, "mo-capped-notes"))
                .isEqualTo(recompute(
                        JOB_AVG,
                        List.of(run.base().getParent(), run.appended().getParent()),
                        new Path("/itchy-test/mo-capped-notes/full-1")));
    }

    /** A JobAvg job's first run over generated sales lines and one increment. */
    record SalesRun(ItchyJob job, Path base, Path appended, ItchyJob.RunReport report) {}

    private static SalesRun salesFirstAndIncrement(
            String name, Configuration conf, int baseRows, int appendedRows, int categories, long seed)
            throws Exception {
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base/a.txt");
        DataGenerator.sales(fs, base, baseRows, categories, seed);
        ItchyJob job = JOB_AVG.job().apply(conf, name);
        job.runFirst(List.of(base.getParent()), new Path(root, "out-0"));
        Path appended = new Path(root, "append-1/part.txt");
        DataGenerator.sales(fs, appended, appendedRows, categories, seed + 1);
        return new SalesRun(
                job, base, appended, job.runIncrement(List.of(appended.getParent()), new Path(root, "out-1")));
    }

    /** The categories (JobAvg's keys) of a sales file's lines. */
    private static Set<String> categories(Path salesFile) throws Exception {
        Set<String> categories = new HashSet<>();
        lines(salesFile).forEach(line -> categories.add(line.split(",")[1]));
        return categories;
    }

    @Test
    void outputsAreCompressedOnlyAsTheJobAsksAndMergeStillReadsThemBack() throws Exception {
        assertThat(runMergeAndCheck("plain-output", conf(ItchyMode.MERGE))).isFalse();
        // Block compression would leave no record positions to read back; Merge gets record compression instead.
        Configuration compressing = conf(ItchyMode.MERGE);
        compressing.setBoolean("mapreduce.output.fileoutputformat.compress", true);
        compressing.set("mapreduce.output.fileoutputformat.compress.type", "BLOCK");
        assertThat(runMergeAndCheck("compressed-output", compressing)).isTrue();
    }

    /** A WordCount Merge job and one increment, checked against a recompute; whether its outputs are compressed. */
    private static boolean runMergeAndCheck(String name, Configuration conf) throws Exception {
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        WORD_COUNT.data().write(fs, new Path(base, "a.txt"), 800, 41);
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(List.of(base), new Path(root, "out-0"));
        Path appended = new Path(root, "append-1");
        WORD_COUNT.data().write(fs, new Path(appended, "part.txt"), 40, 42);
        job.runIncrement(List.of(appended), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full-1")));
        Path part = new Path(new Path(root, "out-1"), ItchyOutputFormat.partFile(0));
        try (SequenceFile.Reader reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(part))) {
            assertThat(reader.isBlockCompressed()).isFalse();
            return reader.isCompressed();
        }
    }

    @Test
    void decisionModelChoosesAsTable52() throws Exception {
        Configuration conf = conf(ItchyMode.AUTO);
        Path base = new Path("/itchy-test/decision/lineitem");
        DataGenerator.lineitem(fs, new Path(base, "a.txt"), 3000, 31);
        Path text = new Path("/itchy-test/decision/text");
        DataGenerator.text(fs, new Path(text, "a.txt"), 3000, 3000, 32);
        ItchyJob.RunReport job1 =
                JOB1.job().apply(conf, "decide-job1").runFirst(List.of(base), new Path("/itchy-test/decision/o1"));
        ItchyJob.RunReport job2 =
                JOB2.job().apply(conf, "decide-job2").runFirst(List.of(base), new Path("/itchy-test/decision/o2"));
        ItchyJob.RunReport words =
                WORD_COUNT.job().apply(conf, "decide-wc").runFirst(List.of(text), new Path("/itchy-test/decision/o3"));
        assertThat(job1.mode()).as(job1.decision()).isEqualTo(ItchyMode.MO);
        assertThat(job1.decision()).contains("avgValSize=16.0 B", "avgSelectivity=1.00");
        assertThat(job1.decision()).doesNotContain("warning");
        assertThat(job2.mode()).as(job2.decision()).isEqualTo(ItchyMode.QMC);
        // TPC-H's 3 return flags x 2 line statuses: every increment touches every group.
        assertThat(job2.decision()).contains("6 distinct keys", "warning: only 6 distinct keys in the sample");
        assertThat(words.mode()).as(words.decision()).isEqualTo(ItchyMode.MERGE);
    }

    /**
     * QMC re-maps single base records by their offsets: a mapper that writes a record's output while mapping a later
     * one (or in cleanup) would lose it. The first job's record check sends such a job to MO under auto, and refuses
     * it under itchy.mode=qmc; the decision model alone would pick QMC for it (long values, a cheap map).
     */
    @Test
    void aMapperThatBuffersRecordsIsNotRunWithQmcAndItsIncrementsEqualARecompute() throws Exception {
        Path root = new Path("/itchy-test/buffering");
        Path base = new Path(root, "base");
        WORD_COUNT.data().write(fs, new Path(base, "a.txt"), 1500, 51);
        Path appended = new Path(root, "append-1");
        WORD_COUNT.data().write(fs, new Path(appended, "part.txt"), 40, 52);

        assertThatThrownBy(() -> bufferingJob(conf(ItchyMode.QMC), "buffering-qmc")
                        .runFirst(List.of(base), new Path(root, "qmc-out")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("itchy.mode=qmc: mapper " + BufferingLineMapper.class.getName())
                .hasMessageContaining("does it buffer records and write them later?");
        assertThat(fs.exists(new Path(root, "qmc-out"))).isFalse();

        ItchyJob.RunReport first =
                bufferingJob(conf(ItchyMode.AUTO), "buffering").runFirst(List.of(base), new Path(root, "out-0"));
        assertThat(first.mode()).isEqualTo(ItchyMode.MO);
        assertThat(first.decision()).contains("-> QMC; but mapper").endsWith("-> MO");
        bufferingJob(conf(ItchyMode.AUTO), "buffering").runIncrement(List.of(appended), new Path(root, "out-1"));

        Configuration plain = conf(ItchyMode.OFF);
        bufferingJob(plain, "buffering-full").runFirst(List.of(base, appended), new Path(root, "full"));
        assertThat(ItchyOutput.current(conf(ItchyMode.AUTO), "buffering"))
                .isEqualTo(ItchyOutput.read(plain, new Path(root, "full")));
    }

    /**
     * Itchy keeps each intermediate key's values and result apart by its bytes: a job that reduces different keys
     * together (a grouping comparator, or a sort comparator finding them equal) is refused, and a first job's record
     * delimiter or sort comparator may not change under its increments.
     */
    @Test
    void jobsThatReduceDifferentKeysTogetherAreRefusedAndTheirSettingsMayNotChange() throws Exception {
        Path root = new Path("/itchy-test/key-equality");
        Path base = new Path(root, "base");
        try (java.io.OutputStream out = fs.create(new Path(base, "a.txt"))) {
            out.write("Apple apple pear\nPEAR plum\n".getBytes(StandardCharsets.UTF_8));
        }
        Configuration grouping = conf(ItchyMode.AUTO);
        grouping.setClass(
                org.apache.hadoop.mapreduce.MRJobConfig.GROUP_COMPARATOR_CLASS, IgnoringCase.class, Object.class);
        assertThatThrownBy(
                        () -> WORD_COUNT.job().apply(grouping, "grouped").runFirst(List.of(base), new Path(root, "g")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("the job groups keys with " + IgnoringCase.class.getName()
                        + " (mapreduce.job.output.group.comparator.class, a secondary sort)")
                .hasMessageContaining("run it with itchy.mode=off");
        Path tagged = new Path(root, "tagged");
        try (java.io.OutputStream out = fs.create(new Path(tagged, "a.txt"))) {
            out.write("Apple;pear,5\napple,3\n".getBytes(StandardCharsets.UTF_8));
        }
        Configuration sorting = conf(ItchyMode.MO);
        sorting.setClass(org.apache.hadoop.mapreduce.MRJobConfig.KEY_COMPARATOR, IgnoringCase.class, Object.class);
        assertThatThrownBy(() -> TAGS.job().apply(sorting, "sorted").runFirst(List.of(tagged), new Path(root, "s")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("finds two different keys of the sample equal");
        assertThat(fs.exists(new Path(root, "g"))).isFalse();
        assertThat(fs.exists(new Path(root, "s"))).isFalse();

        Configuration pipes = conf(ItchyMode.MO);
        pipes.set("textinputformat.record.delimiter", " ");
        WORD_COUNT.job().apply(pipes, "delimited").runFirst(List.of(base), new Path(root, "d-0"));
        Path appended = new Path(root, "append-1");
        try (java.io.OutputStream out = fs.create(new Path(appended, "b.txt"))) {
            out.write("plum fig".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> WORD_COUNT
                        .job()
                        .apply(conf(ItchyMode.MO), "delimited")
                        .runIncrement(List.of(appended), new Path(root, "d-1")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("job delimited changed since its first job");
        Configuration groupedLater = new Configuration(pipes);
        groupedLater.setClass(
                org.apache.hadoop.mapreduce.MRJobConfig.GROUP_COMPARATOR_CLASS, IgnoringCase.class, Object.class);
        assertThatThrownBy(() -> WORD_COUNT
                        .job()
                        .apply(groupedLater, "delimited")
                        .runIncrement(List.of(appended), new Path(root, "d-1")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("job delimited changed since its first job");
        WORD_COUNT.job().apply(pipes, "delimited").runIncrement(List.of(appended), new Path(root, "d-1"));
        assertThat(ItchyOutput.current(pipes, "delimited"))
                .isEqualTo(recompute(WORD_COUNT, pipes, List.of(base, appended), new Path(root, "d-full")));
    }

    private static ItchyJob bufferingJob(Configuration conf, String name) {
        return ItchyJob.create(conf, name)
                .mapper(BufferingLineMapper.class)
                .reducer(BufferingLineMapper.CountReducer.class)
                .mapOutput(Text.class, Text.class)
                .output(Text.class, IntWritable.class);
    }

    @Test
    void refusesIncrementsThatWouldBeWrong() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        Path root = new Path("/itchy-test/errors");
        Path base = new Path(root, "base");
        DataGenerator.sales(fs, new Path(base, "a.txt"), 200, 10, 41);
        Path appended = new Path(root, "append");
        DataGenerator.sales(fs, new Path(appended, "b.txt"), 10, 10, 42);

        assertThatThrownBy(() ->
                        JOB_AVG.job().apply(conf, "never-ran").runIncrement(List.of(appended), new Path(root, "x")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("job never-ran has no first job recorded");

        JOB_AVG.job().apply(conf, "guarded").runFirst(List.of(base), new Path(root, "out-0"));
        ItchyJob changed = ItchyJob.create(conf, "guarded")
                .mapper(Sales.CategoryPriceMapper.class)
                .reducer(Sales.SumReducer.class)
                .mapOutput(Text.class, LongWritable.class)
                .output(Text.class, LongWritable.class);
        assertThatThrownBy(() -> changed.runIncrement(List.of(appended), new Path(root, "x")))
                .hasMessageContaining("job guarded changed since its first job");
        assertThatThrownBy(() -> JOB_AVG.job().apply(conf, "guarded").runIncrement(List.of(base), new Path(root, "x")))
                .hasMessageContaining("was already processed by job guarded");
        assertThatThrownBy(() -> JOB_AVG.job()
                        .apply(conf(ItchyMode.QMC), "guarded")
                        .runIncrement(List.of(appended), new Path(root, "x")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("itchy.mode=QMC, but job guarded has used mo since its first job");

        ItchyJob random = ItchyJob.create(conf, "random")
                .mapper(RandomScoreMapper.class)
                .reducer(WordCount.SumReducer.class)
                .mapOutput(Text.class, IntWritable.class)
                .output(Text.class, IntWritable.class);
        assertThatThrownBy(() -> random.runFirst(List.of(base), new Path(root, "random-out")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("looks non-deterministic");
        assertThat(fs.exists(new Path(root, "random-out"))).isFalse();
        assertThatThrownBy(() -> random.runIncrement(List.of(appended), new Path(root, "x")))
                .hasMessageContaining("job random has no first job recorded");

        DataGenerator.sales(fs, new Path(root, "tmp.txt"), 201, 10, 43);
        fs.delete(new Path(base, "a.txt"), false);
        fs.rename(new Path(root, "tmp.txt"), new Path(base, "a.txt"));
        assertThatThrownBy(
                        () -> JOB_AVG.job().apply(conf, "guarded").runIncrement(List.of(appended), new Path(root, "x")))
                .hasMessageContaining("was modified since it was processed");

        fs.delete(new Path(base, "a.txt"), false);
        assertThatThrownBy(
                        () -> JOB_AVG.job().apply(conf, "guarded").runIncrement(List.of(appended), new Path(root, "x")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("an input of an earlier run is gone")
                .hasMessageContaining("a.txt");
    }

    /** Two jobs of the same classes over different data, increments interleaved: each must see only its own data. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(
            value = ItchyMode.class,
            names = {"MERGE", "MO"})
    void jobsOfTheSameClassesKeepTheirIncrementalDataApart(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        List<String> twins = List.of("twin-a-" + mode, "twin-b-" + mode);
        Map<String, List<Path>> inputs = new java.util.HashMap<>();
        for (int twin = 0; twin < 2; twin++) {
            Path root = new Path("/itchy-test/" + twins.get(twin));
            JOB_SUM.data().write(fs, new Path(root, "base/a.txt"), 400, 70 + twin);
            inputs.put(twins.get(twin), new ArrayList<>(List.of(new Path(root, "base"))));
            JOB_SUM.job()
                    .apply(conf, twins.get(twin))
                    .runFirst(List.of(new Path(root, "base")), new Path(root, "out-0"));
        }
        for (int increment = 1; increment <= 2; increment++) {
            for (int twin = 0; twin < 2; twin++) {
                String name = twins.get(twin);
                Path root = new Path("/itchy-test/" + name);
                Path appended = new Path(root, "append-" + increment);
                JOB_SUM.data().write(fs, new Path(appended, "part.txt"), 30, 80 + 10 * twin + increment);
                inputs.get(name).add(appended);
                JOB_SUM.job().apply(conf, name).runIncrement(List.of(appended), new Path(root, "out-" + increment));
                assertThat(ItchyOutput.current(conf, name))
                        .as("%s after increment %d", name, increment)
                        .isEqualTo(recompute(JOB_SUM, inputs.get(name), new Path(root, "full-" + increment)));
            }
        }
    }

    @Test
    void theToolShowsStatusAndCompactsTheCurrentResult() throws Exception {
        Configuration conf = conf(ItchyMode.MERGE);
        String name = "tool";
        Path root = new Path("/itchy-test/" + name);
        DataGenerator.sales(fs, new Path(root, "base/a.txt"), 300, 20, 61);
        DataGenerator.sales(fs, new Path(root, "append/b.txt"), 30, 20, 62);
        ItchyJob job = JOB_SUM.job().apply(conf, name);
        job.runFirst(List.of(new Path(root, "base")), new Path(root, "out-0"));
        job.runIncrement(List.of(new Path(root, "append")), new Path(root, "out-1"));
        Map<WritableComparable, Writable> current = ItchyOutput.current(conf, name);

        ToolRun status = tool(conf, "status", name);
        assertThat(status.exit()).isZero();
        assertThat(status.out())
                .contains("technique   MERGE", "increments  1 committed", "base/a.txt", "increment 1)", "out-1");

        ToolRun show = tool(conf, "show", name);
        assertThat(show.exit()).isZero();
        List<String> expected = new ArrayList<>();
        current.forEach((key, value) -> expected.add(key + "\t" + value));
        assertThat(show.out().lines().toList()).isEqualTo(expected);
        assertThat(tool(conf, "show", name, "--limit", "3").out().lines().toList())
                .isEqualTo(expected.subList(0, 3));

        ToolRun compact = tool(conf, "compact", name, root + "/compacted");
        assertThat(compact.exit()).isZero();
        assertThat(compact.out()).contains("compacted " + current.size() + " keys");
        assertThat(ItchyOutput.read(conf, new Path(root, "compacted"))).isEqualTo(current);
        assertThat(ItchyOutput.current(conf, name))
                .as("compact leaves the job as it was")
                .isEqualTo(current);

        ToolRun reclaim = tool(conf, "reclaim", name);
        assertThat(reclaim.exit()).isZero();
        assertThat(reclaim.out()).isEqualTo("deleted 0 cells of uncommitted runs of tool\n");

        ToolRun again = tool(conf, "compact", name, root + "/compacted");
        assertThat(again.exit()).isEqualTo(ItchyTool.EXIT_FAILED);
        assertThat(again.err()).contains("exists; compact into a new directory");
        ToolRun unknown = tool(conf, "show", "no-such-job");
        assertThat(unknown.exit()).isEqualTo(ItchyTool.EXIT_FAILED);
        assertThat(unknown.err()).contains("job no-such-job has no first job recorded");
        ToolRun badLimit = tool(conf, "show", name, "--limit", "x");
        assertThat(badLimit.exit()).isEqualTo(Launchers.USAGE);
        assertThat(badLimit.err()).contains("--limit").doesNotContain("\tat ");
        ToolRun negative = tool(conf, "show", name, "--limit", "-1");
        assertThat(negative.exit()).isEqualTo(Launchers.USAGE);
        assertThat(negative.err())
                .startsWith("itchy show: Invalid value -1 for --limit")
                .contains("Try 'itchy show --help'");
        ToolRun unknownCommand = tool(conf, "frobnicate", name);
        assertThat(unknownCommand.exit()).isEqualTo(Launchers.USAGE);
        assertThat(unknownCommand.err()).contains("frobnicate");
        ToolRun none = tool(conf);
        assertThat(none.exit()).isEqualTo(Launchers.USAGE);
        assertThat(none.err()).contains("a command is needed: status, show, compact, reclaim or run");
        ToolRun help = tool(conf, "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("status", "show", "compact", "Exit codes:");
    }

    record ToolRun(int exit, String out, String err) {}

    private static ToolRun tool(Configuration conf, String... args) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit;
        try (java.io.PrintStream o = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
                java.io.PrintStream e = new java.io.PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = org.apache.hadoop.util.ToolRunner.run(new Configuration(conf), new ItchyTool(o, e), args);
        }
        return new ToolRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailedIncrementLeavesNothingVisibleAndItsRerunIsRight() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        String name = "rerun";
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        DataGenerator.text(fs, new Path(base, "a.txt"), 800, 500, 51);
        ItchyJob job = ItchyJob.create(conf, name)
                .mapper(FailingWordMapper.class)
                .combiner(WordCount.SumReducer.class)
                .reducer(WordCount.SumReducer.class)
                .mapOutput(Text.class, IntWritable.class)
                .output(Text.class, IntWritable.class)
                .reducers(2);
        job.runFirst(List.of(base), new Path(root, "out-0"));
        Map<WritableComparable, Writable> baseResult = ItchyOutput.current(conf, name);
        Path appended = new Path(root, "append-1");
        DataGenerator.text(fs, new Path(appended, "part.txt"), 60, 500, 52);

        FailingWordMapper.FAIL.set(true);
        try {
            assertThatThrownBy(() -> job.runIncrement(List.of(appended), new Path(root, "out-1")))
                    .isInstanceOf(ItchyException.class)
                    .hasMessageContaining("increment 1 of job rerun failed: task attempt_")
                    .hasMessageContaining("java.io.IOException: injected failure")
                    .cause()
                    .isInstanceOf(TaskFailure.class)
                    .satisfies(cause -> assertThat(cause.getStackTrace()[0].getClassName())
                            .isEqualTo(FailingWordMapper.class.getName()));
        } finally {
            FailingWordMapper.FAIL.set(false);
        }
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(baseResult);

        job.runIncrement(List.of(appended), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full")));
        Path compacted = new Path(root, "compacted");
        assertThat(ItchyOutput.compact(conf, name, compacted))
                .isEqualTo(ItchyOutput.current(conf, name).size());
        assertThat(ItchyOutput.read(conf, compacted)).isEqualTo(ItchyOutput.current(conf, name));
    }

    @Test
    void aFailedJobWithoutItchyNamesTheTasksException() throws Exception {
        Configuration conf = conf(ItchyMode.OFF);
        String name = "plain-failure";
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        DataGenerator.text(fs, new Path(base, "a.txt"), 100, 50, 53);
        ItchyJob job = ItchyJob.create(conf, name)
                .mapper(FailingWordMapper.class)
                .reducer(WordCount.SumReducer.class)
                .mapOutput(Text.class, IntWritable.class)
                .output(Text.class, IntWritable.class)
                .reducers(1);
        FailingWordMapper.FAIL.set(true);
        try {
            assertThatThrownBy(() -> job.runFirst(List.of(base), new Path(root, "out-0")))
                    .isInstanceOf(ItchyException.class)
                    .hasMessageContaining("first job of job plain-failure failed: task attempt_")
                    .hasMessageContaining("java.io.IOException: injected failure");
        } finally {
            FailingWordMapper.FAIL.set(false);
        }
        assertThat(job.runFirst(List.of(base), new Path(root, "out-0")).mode()).isEqualTo(ItchyMode.OFF);
        assertThat(ItchyOutput.read(conf, new Path(root, "out-0")))
                .isEqualTo(recompute(WORD_COUNT, List.of(base), new Path(root, "full")));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"OFF", "MO", "QMC"})
    void aFailingCombinerIsNamedInTheError(ItchyMode mode) throws Exception {
        String name = "failing-combiner-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        // Few words over many lines: keys with several values, which even QMC's combiner hands to the user's.
        DataGenerator.text(fs, new Path(base, "a.txt"), 200, 5, 57);
        ItchyJob job = ItchyJob.create(conf(mode), name)
                .mapper(WordCount.TokenMapper.class)
                .combiner(FailingCombiner.class)
                .reducer(WordCount.SumReducer.class)
                .mapOutput(Text.class, IntWritable.class)
                .output(Text.class, IntWritable.class)
                .reducers(1);
        assertThatThrownBy(() -> job.runFirst(List.of(base), new Path(root, "out-0")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("first job of job " + name + " failed: task attempt_")
                .hasMessageContaining("java.io.IOException: combiner says no");
    }

    /**
     * A key longer than an HBase row key may be (here a 100,000-character word) is refused in the first job, naming
     * the limit and the key's beginning (HBase's own errors named no key).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MERGE", "MO", "QMC"})
    void aKeyLongerThanAnHBaseRowIsRefused(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        String name = "long-key-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        writeText(new Path(base, "part.txt"), "short words\n" + "x".repeat(100_000) + "\n");
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        assertThatThrownBy(() -> job.runFirst(List.of(base), new Path(root, "out-0")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("first job of job " + name + " failed")
                .hasMessageContaining("key of 100004 bytes serialized (beginning \\x8D\\x01\\x86\\xA0xxxxx")
                .hasMessageContaining("limited to " + ItchyStore.MAX_ROW + " bytes");
    }

    /**
     * The longest key allowed (32,615 bytes serialized: a word of 32,612 characters as a Text) first met in an
     * increment, in a table with the longest name allowed (128 bytes), is stored and read back: its row fits HBase's
     * limit together with the key, exactly that limit long, that HBase's client builds to find the row's region (the
     * table's name before the row). That key, not the row, failed reads of stored values when keys were allowed up to
     * HBase's row limit. One byte more is refused.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MERGE", "MO", "QMC"})
    void theLongestKeyAllowedWorksInAnIncrement(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        conf.set(ItchyConf.TABLE, "t".repeat(ItchyStore.MAX_TABLE_NAME_BYTES));
        String name = "longest-key-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        writeText(new Path(base, "part.txt"), "short words\n");
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(List.of(base), new Path(root, "out-0"));
        // The row is the job's 8-byte signature and the key; a Text this long has a 3-byte length before its bytes.
        int longestKey = ItchyStore.MAX_ROW - 8;
        String longest = "k".repeat(longestKey - 3);
        Path appended = new Path(root, "a1");
        writeText(new Path(appended, "part.txt"), longest + " short\n");
        job.runIncrement(List.of(appended), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full-1")));
        Path tooLong = new Path(root, "a2");
        writeText(new Path(tooLong, "part.txt"), longest + "k\n");
        assertThatThrownBy(() -> job.runIncrement(List.of(tooLong), new Path(root, "out-2")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("key of " + (longestKey + 1) + " bytes serialized")
                .hasMessageContaining("limited to " + ItchyStore.MAX_ROW + " bytes");
    }

    private void writeText(Path file, String text) throws IOException {
        try (java.io.Writer out = new java.io.OutputStreamWriter(fs.create(file), StandardCharsets.UTF_8)) {
            out.write(text);
        }
    }

    /** A file given twice in one run (itself and its directory) is processed once, in a first job and an increment. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MERGE", "MO", "QMC"})
    void aFileGivenTwiceIsProcessedOnce(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        String name = "twice-given-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = writeInput(root, "base", 300, 81);
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(List.of(base, new Path(base, "part.txt")), new Path(root, "out-0"));
        Path appended = writeInput(root, "append-1", 30, 82);
        ItchyJob.RunReport report =
                job.runIncrement(List.of(appended, new Path(appended, "part.txt")), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full")));
        if (mode != ItchyMode.QMC) {
            assertThat(report.counter(ItchyCounters.MAP_INPUT_RECORDS)).isEqualTo(30);
        }
    }

    /**
     * A first job whose task fails (a price that is not a number, past the records the decision model samples) is run
     * again with the same output once the input is fixed: its unfinished output is replaced, as for an increment (it
     * had failed with "Output directory ... already exists").
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "OFF"})
    void aFailedFirstJobIsRerunIntoTheSameOutput(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        conf.setInt(ItchyConf.SAMPLE_RECORDS, 2);
        String name = "first-rerun-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path input = new Path(root, "base/part.txt");
        Path output = new Path(root, "out-0");
        try (java.io.Writer out = new java.io.OutputStreamWriter(fs.create(input), StandardCharsets.UTF_8)) {
            out.write("1,b,4\n2,b,6\n3,c,2\n4,f,9\n5,c,six\n");
        }
        ItchyJob job = JOB_AVG.job().apply(conf, name);
        assertThatThrownBy(() -> job.runFirst(List.of(input.getParent()), output))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("first job of job " + name + " failed");
        assertThat(fs.exists(output)).as("the failed run's unfinished output").isTrue();

        try (java.io.Writer out = new java.io.OutputStreamWriter(fs.create(input, true), StandardCharsets.UTF_8)) {
            out.write("1,b,4\n2,b,6\n3,c,2\n4,f,9\n5,c,6\n");
        }
        job.runFirst(List.of(input.getParent()), output);
        assertThat(ItchyOutput.read(conf, output))
                .isEqualTo(recompute(JOB_AVG, List.of(input.getParent()), new Path(root, "full")));
    }

    /**
     * Itchy's own work in a task fails, not the user's code (here an MO map task cannot write its key notes: the
     * increment's scratch directory is a file): the task's exception is the cause of the driver's error, and the rerun
     * is right once the obstacle is gone.
     */
    @Test
    void aFailureOfItchysOwnWorkInATaskReachesTheDriver() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        String name = "own-work-failure";
        Path root = new Path("/itchy-test/" + name);
        Path base = writeInput(root, "base", 300, 61);
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(List.of(base), new Path(root, "out-0"));
        Path appended = writeInput(root, "append-1", 20, 62);
        Path scratch = new Path(root, "_itchy-out-1");
        fs.create(scratch).close();

        assertThatThrownBy(() -> job.runIncrement(List.of(appended), new Path(root, "out-1")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("increment 1 of job own-work-failure failed: task attempt_")
                .cause()
                .isInstanceOf(TaskFailure.class)
                .satisfies(cause -> assertThat(cause.getStackTrace())
                        .anyMatch(frame -> frame.getClassName().equals(TouchedKeys.class.getName())));

        fs.delete(scratch, false);
        job.runIncrement(List.of(appended), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full-1")));
    }

    /**
     * Ctrl-C during an increment ends the driver before it removes its scratch directory (here, as QMC's key pass
     * left it); the rerun of the same command had failed on it ("Output directory ... already exists").
     */
    @Test
    void anIncrementRerunAfterAnInterruptedOneRemovesItsScratch() throws Exception {
        Started started = startWordCount("interrupted", ItchyMode.QMC, 71);
        Path appended = writeInput(started.root(), "append-1", 40, 72);
        Path scratch = new Path(started.root(), "_itchy-out-1");
        fs.mkdirs(new Path(scratch, "keys/_temporary/0"));

        started.job().runIncrement(List.of(appended), new Path(started.root(), "out-1"));
        started.inputs().add(appended);
        assertThat(ItchyOutput.current(started.conf(), started.name()))
                .isEqualTo(recompute(WORD_COUNT, started.inputs(), new Path(started.root(), "full-1")));
        assertThat(fs.exists(scratch)).isFalse();
    }

    /**
     * The driver dies between the bulk load and the commit; the next increment is a different append. Nothing of the
     * failed increment may become visible, then or later, and its append can still be run afterwards.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC", "MERGE"})
    void anIncrementWhoseCommitFailedNeverBecomesVisible(ItchyMode mode) throws Exception {
        Started started = startWordCount("commit-fails", mode, 61);
        Configuration conf = started.conf();
        String name = started.name();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        Path lost = writeInput(root, "append-lost", 40, 62);
        job.beforeCommit(() -> {
            throw new java.io.IOException("driver died");
        });
        assertThatThrownBy(() -> job.runIncrement(List.of(lost), new Path(root, "out-lost")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("not committed")
                .hasRootCauseMessage("driver died");
        job.beforeCommit(() -> {});
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-0")));

        for (int increment = 1; increment <= 2; increment++) {
            Path appended = writeInput(root, "append-" + increment, 40, 62 + increment);
            inputs.add(appended);
            job.runIncrement(List.of(appended), new Path(root, "out-" + increment));
            assertThat(ItchyOutput.current(conf, name))
                    .as("after increment %d", increment)
                    .isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-" + increment)));
        }
        // The failed run's cells are deleted, once; the result does not change.
        assertThat(job.reclaim()).isPositive();
        assertThat(job.reclaim()).isZero();
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-reclaimed")));
        inputs.add(lost);
        job.runIncrement(List.of(lost), new Path(root, "out-lost"));
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-3")));
    }

    /** The loser of two first jobs of one name must not be told to run again: it would be refused. */
    @Test
    void theSecondOfTwoFirstJobsAtOnceIsToldToRunAnIncrement() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        String name = "two-firsts";
        Path root = new Path("/itchy-test/" + name);
        Path base = writeInput(root, "base", 100, 101);
        ItchyJob first = WORD_COUNT.job().apply(conf, name);
        ItchyJob second = WORD_COUNT.job().apply(conf, name);
        first.beforeCommit(() -> second.runFirst(List.of(base), new Path(root, "out-b")));

        assertThatThrownBy(() -> first.runFirst(List.of(base), new Path(root, "out-a")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("another first job of job " + name + " committed first")
                .hasMessageEndingWith("run its input as an increment of the job, or under a new name");
        assertThat(fs.exists(new Path(root, "out-a"))).isFalse();
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base), new Path(root, "full")));
    }

    /**
     * A committed run's output holds results whether or not its {@code _SUCCESS} is still there: an increment asked to
     * write into it is refused, and the output and the result stay as they were.
     */
    @Test
    void anIncrementIntoACommittedOutputIsRefusedEvenWithoutItsMarker() throws Exception {
        Started started = startWordCount("into-committed", ItchyMode.MO, 91);
        Path committed = new Path(started.root(), "out-0");
        fs.delete(new Path(committed, "_SUCCESS"), false);
        Map<WritableComparable, Writable> before = ItchyOutput.current(started.conf(), started.name());
        Path appended = writeInput(started.root(), "append-1", 40, 92);

        assertThatThrownBy(() -> started.job().runIncrement(List.of(appended), committed))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("the output of a committed run of this job");
        assertThatThrownBy(() -> started.job().runIncrement(List.of(appended), new Path(committed, "inner")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("the output of a committed run of this job");
        assertThat(ItchyOutput.current(started.conf(), started.name())).isEqualTo(before);
    }

    /**
     * A driver killed after its job and before the commit leaves an output without {@code _SUCCESS}: it is not taken
     * for a result, and the same command run again replaces it. The marker comes only with the commit.
     */
    @Test
    void anOutputIsMarkedFinishedOnlyOnceItsRunIsCommitted() throws Exception {
        Started started = startWordCount("marker", ItchyMode.QMC, 81);
        assertThat(fs.exists(new Path(started.root(), "out-0/_SUCCESS"))).isTrue();
        Path appended = writeInput(started.root(), "append-1", 40, 82);
        Path output = new Path(started.root(), "out-1");
        Path marker = new Path(output, "_SUCCESS");
        boolean[] markedBeforeCommit = {true};
        ItchyJob job = started.job();
        job.beforeCommit(() -> markedBeforeCommit[0] = fs.exists(marker));
        job.runIncrement(List.of(appended), output);
        job.beforeCommit(() -> {});

        assertThat(markedBeforeCommit[0]).as("_SUCCESS before the commit").isFalse();
        assertThat(fs.exists(marker)).isTrue();
        assertThat(fs.listStatus(output, path -> path.getName().startsWith("part-")))
                .isNotEmpty();
    }

    /**
     * The bulk load of an increment's stored cells fails (here: HBase refuses a family it does not have): the increment
     * is not committed, its output is removed, the result is unchanged, and the same append run again into the same
     * directory, with no manual step, gives the right result.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC"})
    void anIncrementWhoseBulkLoadFailedCanSimplyBeRunAgain(ItchyMode mode) throws Exception {
        Started started = startWordCount("load-fails", mode, 71);
        Configuration conf = started.conf();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        Path appended = writeInput(root, "append-1", 40, 72);
        Path output = new Path(root, "out-1");
        FileSystem fs = output.getFileSystem(conf);
        job.beforeLoad(() -> {
            // The stored cells are under the output of the job that stored them (QMC: its key pass, in scratch).
            org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
                    fs.listFiles(root, true);
            Path family = null;
            while (family == null && files.hasNext()) {
                Path file = files.next().getPath();
                if (file.getParent().getParent().getName().equals(BulkCells.DIR)) {
                    family = file.getParent();
                }
            }
            assertThat(family).as("a family of cells stored by the increment").isNotNull();
            fs.rename(family, new Path(family.getParent(), "nosuchfamily"));
        });

        assertThatThrownBy(() -> job.runIncrement(List.of(appended), output))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("was not committed")
                .hasMessageContaining("nosuchfamily")
                .hasMessageEndingWith("run it again over the same input");
        job.beforeLoad(() -> {});
        assertThat(fs.exists(output)).as("the failed increment's output").isFalse();
        assertThat(ItchyOutput.current(conf, started.name()))
                .isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-0")));

        job.runIncrement(List.of(appended), output);
        inputs.add(appended);
        assertThat(ItchyOutput.current(conf, started.name()))
                .isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-1")));
    }

    /**
     * Another increment of the same job commits while this one is between its bulk load and its commit: this one is
     * refused, nothing of it is visible, and running it again afterwards gives the right result.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC", "MERGE"})
    void aSecondConcurrentIncrementIsRefusedNotLost(ItchyMode mode) throws Exception {
        Started started = startWordCount("concurrent", mode, 71);
        Configuration conf = started.conf();
        String name = started.name();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        Path first = writeInput(root, "append-1", 40, 72);
        Path second = writeInput(root, "append-2", 40, 73);
        ItchyJob other = WORD_COUNT.job().apply(conf, name);
        job.beforeCommit(() -> other.runIncrement(List.of(second), new Path(root, "out-2")));
        assertThatThrownBy(() -> job.runIncrement(List.of(first), new Path(root, "out-1")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("another increment of job " + name + " committed increment 1 first");
        job.beforeCommit(() -> {});
        inputs.add(second);
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-1")));

        inputs.add(first);
        job.runIncrement(List.of(first), new Path(root, "out-1"));
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(recompute(WORD_COUNT, inputs, new Path(root, "full-2")));
    }

    /**
     * QMC over records that emit several keys only from the second increment on: a base of one-tag records, an append
     * of two-tag records, then appends of one-tag records, each of which re-reads two-tag records whose other tag it
     * did not touch.
     */
    @Test
    void qmcPostFiltersOnceAnyCommittedRecordEmitsSeveralKeys() throws Exception {
        Configuration conf = conf(ItchyMode.QMC);
        Started started = startTags(TAGS, conf, "qmc-tags", "part.txt", 600, 81, new TagFormat("\n", false));
        String name = started.name();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        for (int increment = 1; increment <= 3; increment++) {
            Path appended = new Path(root, "append-" + increment);
            writeTags(
                    new Path(appended, "part.txt"),
                    30,
                    increment == 1 ? 2 : 1,
                    81 + increment,
                    new TagFormat("\n", false));
            inputs.add(appended);
            job.runIncrement(List.of(appended), new Path(root, "out-" + increment));
            assertThat(ItchyOutput.current(conf, name))
                    .as("after increment %d", increment)
                    .isEqualTo(recompute(TAGS, conf, inputs, new Path(root, "full-" + increment)));
        }
    }

    /** How QMC's base input is encoded: each way, the job's record reader reads records the raw bytes do not show. */
    enum Encoding {
        UTF8_BOM,
        GZIP,
        CUSTOM_DELIMITER,
        CRLF_LINES,
        CR_LINES
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void qmcReReadsBaseRecordsAsTheJobsRecordReaderDid(Encoding encoding) throws Exception {
        Configuration conf = conf(ItchyMode.QMC);
        String delimiter =
                switch (encoding) {
                    case CUSTOM_DELIMITER -> "|";
                    case CRLF_LINES -> "\r\n";
                    case CR_LINES -> "\r";
                    default -> "\n";
                };
        if (encoding == Encoding.CUSTOM_DELIMITER) {
            conf.set("textinputformat.record.delimiter", delimiter);
        }
        Started started = startTags(
                TAGS,
                conf,
                "qmc-reads-" + encoding.name().toLowerCase(java.util.Locale.ROOT),
                encoding == Encoding.GZIP ? "part.txt.gz" : "part.txt",
                600,
                91,
                new TagFormat(delimiter, encoding == Encoding.UTF8_BOM));
        String name = started.name();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        for (int increment = 1; increment <= 2; increment++) {
            Path appended = new Path(root, "append-" + increment);
            writeTags(new Path(appended, "part.txt"), 30, 1, 91 + increment, new TagFormat(delimiter, false));
            inputs.add(appended);
            ItchyJob.RunReport report = job.runIncrement(List.of(appended), new Path(root, "out-" + increment));
            assertThat(report.counter(ItchyCounters.BASE_RECORDS_REREAD)).isPositive();
            assertThat(ItchyOutput.current(conf, name))
                    .as("after increment %d", increment)
                    .isEqualTo(recompute(TAGS, conf, inputs, new Path(root, "full-" + increment)));
        }
    }

    @Test
    void qmcIsRefusedForInputItCannotReReadByOffset() throws Exception {
        Path root = new Path("/itchy-test/qmc-bzip2");
        Path base = new Path(root, "base");
        writeTags(new Path(base, "part.txt"), 100, 1, 95, new TagFormat("\n", false));
        org.apache.hadoop.io.compress.BZip2Codec bzip2 = new org.apache.hadoop.io.compress.BZip2Codec();
        bzip2.setConf(fs.getConf());
        try (java.io.OutputStream out = bzip2.createOutputStream(fs.create(new Path(base, "more.txt.bz2")))) {
            out.write("t1,5\nt2,7\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> TAGS.job()
                        .apply(conf(ItchyMode.QMC), "qmc-bzip2")
                        .runFirst(List.of(base), new Path(root, "out-0")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("QMC cannot re-read records of")
                .hasMessageContaining("more.txt.bz2")
                .hasMessageContaining("use itchy.mode=mo or auto");
    }

    /**
     * A HAVING-like reducer stops emitting keys whose average an append of low values brings below its bound: the
     * differential output deletes them, and the current and compacted results no longer hold them.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC"})
    void aKeyTheReducerNoLongerEmitsIsDeleted(ItchyMode mode) throws Exception {
        Example having = tagsExample("having", HavingAverageReducer.class, org.apache.hadoop.io.DoubleWritable.class);
        Configuration conf = conf(mode);
        Started started = startTags(
                having,
                conf,
                "having-" + mode.name().toLowerCase(java.util.Locale.ROOT),
                "part.txt",
                400,
                97,
                new TagFormat("\n", false));
        String name = started.name();
        Path root = started.root();
        List<Path> inputs = started.inputs();
        ItchyJob job = started.job();
        Map<WritableComparable, Writable> before = ItchyOutput.current(conf, name);

        Path appended = new Path(root, "append-1");
        try (java.io.Writer out =
                new java.io.OutputStreamWriter(fs.create(new Path(appended, "part.txt")), StandardCharsets.UTF_8)) {
            for (int tag = 0; tag < 40; tag += 2) {
                out.write(("t" + tag + ",0\n").repeat(12));
            }
        }
        inputs.add(appended);
        job.runIncrement(List.of(appended), new Path(root, "out-1"));
        Map<WritableComparable, Writable> full = recompute(having, conf, inputs, new Path(root, "full-1"));
        assertThat(before.keySet()).as("keys the append removes").isNotEqualTo(full.keySet());
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(full);
        Path compacted = new Path(root, "compacted");
        ItchyOutput.compact(conf, name, compacted);
        assertThat(ItchyOutput.read(conf, compacted)).isEqualTo(full);
    }

    /**
     * A reducer that writes under another key than the one it reduces: an increment could neither replace nor delete
     * those records, so QMC and MO refuse it in the first job already, before any increment could differ from a
     * recompute (it had shown a=2 and a#=3 where a recompute has only a#=3).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MO", "QMC"})
    void aReducerWritingUnderAnotherKeyIsRefusedInTheFirstJob(ItchyMode mode) throws Exception {
        String name = "other-key-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        try (java.io.Writer out =
                new java.io.OutputStreamWriter(fs.create(new Path(base, "part.txt")), StandardCharsets.UTF_8)) {
            out.write("a,1\na,1\n");
        }
        ItchyJob job = tagsExample("other-key", OtherKeyReducer.class, LongWritable.class)
                .job()
                .apply(conf(mode), name);
        assertThatThrownBy(() -> job.runFirst(List.of(base), new Path(root, "out-0")))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("first job of job " + name + " failed")
                .hasMessageContaining("the reducer wrote a record under key 'a#' while reducing key 'a'")
                .hasMessageContaining("needs a reducer that writes only under the key it reduces")
                .hasMessageContaining("itchy.mode=off");
    }

    /**
     * Commas (and a leading space) in input file and output directory names: the tasks get every path back as it
     * was (a comma had split a path, and every run failed with a StringIndexOutOfBoundsException).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ItchyMode.class,
            names = {"MERGE", "MO", "QMC"})
    void pathsWithCommasAreRunAsGiven(ItchyMode mode) throws Exception {
        Configuration conf = conf(mode);
        String name = "commas-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        WORD_COUNT.data().write(fs, new Path(base, " a,b.txt"), 300, 71);
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(List.of(base), new Path(root, "out,0"));
        Path appended = new Path(root, "append,1");
        WORD_COUNT.data().write(fs, new Path(appended, "c,d.txt"), 30, 72);
        job.runIncrement(List.of(appended), new Path(root, "out,1"));
        assertThat(ItchyOutput.current(conf, name))
                .isEqualTo(recompute(WORD_COUNT, List.of(base, appended), new Path(root, "full")));
    }

    @Test
    void currentRefusesAnOutputWithSeveralRecordsPerKey() throws Exception {
        Configuration conf = conf(ItchyMode.MO);
        startTags(
                tagsExample("twice", TwiceSumReducer.class, LongWritable.class),
                conf,
                "twice",
                "part.txt",
                50,
                99,
                new TagFormat("\n", false));
        assertThatThrownBy(() -> ItchyOutput.current(conf, "twice"))
                .isInstanceOf(ItchyException.class)
                .hasMessageMatching(".*out-0 holds several records for key t[0-9]+, which .*");
    }

    /** Where a random step fails, if it does. */
    enum FailurePoint {
        NONE,
        TASK,
        COMMIT
    }

    /**
     * A job drawn from a small family (sum per tag by QMC, MO or Merge; a HAVING-like average by QMC or MO), random
     * appends of one- and two-tag records, and random failure points (a task, the commit) each followed by the rerun:
     * after every step the current result equals a recompute.
     */
    @ParameterizedTest(name = "seed {0}")
    // Seeds whose draws cover all five shapes, with task and commit failures among their steps.
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3, 4, 6})
    void randomJobsAppendsAndFailuresAlwaysEqualARecompute(long seed) throws Exception {
        java.util.Random random = new java.util.Random(seed);
        Example having = tagsExample("having", HavingAverageReducer.class, org.apache.hadoop.io.DoubleWritable.class);
        Example summing = new Example(
                "sum-merge", (conf, name) -> TAGS.job().apply(conf, name).setMerge(Sales.SumMerge.class), TAGS.data());
        List<Map.Entry<Example, ItchyMode>> family = List.of(
                Map.entry(TAGS, ItchyMode.QMC),
                Map.entry(TAGS, ItchyMode.MO),
                Map.entry(summing, ItchyMode.MERGE),
                Map.entry(having, ItchyMode.QMC),
                Map.entry(having, ItchyMode.MO));
        Map.Entry<Example, ItchyMode> drawn = family.get(random.nextInt(family.size()));
        Example example = drawn.getKey();
        Configuration conf = conf(drawn.getValue());
        String name = "random-" + seed;
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        TagFormat lines = new TagFormat("\n", false);
        writeTags(
                new Path(base, "part.txt"), 200 + random.nextInt(200), 1 + random.nextInt(2), random.nextLong(), lines);
        List<Path> inputs = new ArrayList<>(List.of(base));
        ItchyJob job = example.job().apply(conf, name);
        job.runFirst(inputs, new Path(root, "out-0"));
        Map<WritableComparable, Writable> expected = recompute(example, conf, inputs, new Path(root, "full-0"));
        assertThat(ItchyOutput.current(conf, name)).isEqualTo(expected);
        for (int step = 1; step <= 3; step++) {
            Path appended = new Path(root, "append-" + step);
            writeTags(
                    new Path(appended, "part.txt"),
                    20 + random.nextInt(40),
                    1 + random.nextInt(2),
                    random.nextLong(),
                    lines);
            Path output = new Path(root, "out-" + step);
            FailurePoint failure = FailurePoint.values()[random.nextInt(FailurePoint.values().length)];
            if (failure != FailurePoint.NONE) {
                TagMapper.FAIL.set(failure == FailurePoint.TASK);
                job.beforeCommit(() -> {
                    if (failure == FailurePoint.COMMIT) {
                        throw new java.io.IOException("driver died");
                    }
                });
                try {
                    assertThatThrownBy(() -> job.runIncrement(List.of(appended), output))
                            .as("%s, step %d fails at %s", drawn, step, failure)
                            .isInstanceOf(ItchyException.class);
                } finally {
                    TagMapper.FAIL.set(false);
                    job.beforeCommit(() -> {});
                }
                assertThat(ItchyOutput.current(conf, name))
                        .as("%s, after step %d failed", drawn, step)
                        .isEqualTo(expected);
            }
            job.runIncrement(List.of(appended), output);
            inputs.add(appended);
            expected = recompute(example, conf, inputs, new Path(root, "full-" + step));
            assertThat(ItchyOutput.current(conf, name))
                    .as("%s, after step %d", drawn, step)
                    .isEqualTo(expected);
        }
    }

    /** A job over one-tag records after its first job over one base file of {@code records} of them. */
    private static Started startTags(
            Example example, Configuration conf, String name, String file, int records, long seed, TagFormat format)
            throws Exception {
        Path root = new Path("/itchy-test/" + name);
        Path base = new Path(root, "base");
        writeTags(new Path(base, file), records, 1, seed, format);
        ItchyJob job = example.job().apply(conf, name);
        job.runFirst(List.of(base), new Path(root, "out-0"));
        return new Started(conf, name, root, new ArrayList<>(List.of(base)), job);
    }

    /** Records' delimiter, and whether a file starts with a UTF-8 byte order mark. */
    record TagFormat(String delimiter, boolean bom) {}

    /**
     * {@code tags,value} records over 40 tags, each with {@code tagsPerRecord} distinct tags; the first record's tag
     * is t0, so appends touch it; gzip-compressed if the name ends with .gz.
     */
    private static void writeTags(Path file, int records, int tagsPerRecord, long seed, TagFormat format)
            throws Exception {
        java.util.Random random = new java.util.Random(seed);
        java.io.OutputStream raw = fs.create(file);
        try (java.io.Writer out = new java.io.OutputStreamWriter(
                file.getName().endsWith(".gz") ? new java.util.zip.GZIPOutputStream(raw) : raw,
                StandardCharsets.UTF_8)) {
            if (format.bom()) {
                out.write('\uFEFF');
            }
            for (int record = 0; record < records; record++) {
                int first = record == 0 ? 0 : random.nextInt(40);
                String tagList =
                        tagsPerRecord == 1 ? "t" + first : "t" + first + ";t" + (first + 1 + random.nextInt(39)) % 40;
                // With a custom delimiter, a newline inside some records: a reader splitting at newlines goes wrong.
                boolean lineEnds = format.delimiter().matches("\r\n|\r|\n");
                String value = (record % 7 == 3 && !lineEnds ? "\n" : "") + random.nextInt(1000);
                out.write(tagList + "," + value + format.delimiter());
            }
        }
    }

    /** A word count job of one technique, after its first job over 1,500 lines; inputs is mutable, for appends. */
    private record Started(Configuration conf, String name, Path root, List<Path> inputs, ItchyJob job) {}

    private static Started startWordCount(String prefix, ItchyMode mode, long seed) throws Exception {
        Configuration conf = conf(mode);
        String name = prefix + "-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-test/" + name);
        List<Path> inputs = new ArrayList<>(List.of(writeInput(root, "base", 1500, seed)));
        ItchyJob job = WORD_COUNT.job().apply(conf, name);
        job.runFirst(inputs, new Path(root, "out-0"));
        return new Started(conf, name, root, inputs, job);
    }

    private static Path writeInput(Path root, String dir, int lines, long seed) throws Exception {
        Path path = new Path(root, dir);
        WORD_COUNT.data().write(fs, new Path(path, "part.txt"), lines, seed);
        return path;
    }

    private static Map<WritableComparable, Writable> recompute(Example example, List<Path> inputs, Path output)
            throws Exception {
        return recompute(example, conf(ItchyMode.OFF), inputs, output);
    }

    /** A plain job with the Itchy job's configuration (its input format settings): the result to compare with. */
    static Map<WritableComparable, Writable> recompute(
            Example example, Configuration itchyConf, List<Path> inputs, Path output) throws Exception {
        Configuration conf = new Configuration(itchyConf);
        conf.set(ItchyConf.MODE, ItchyMode.OFF.name());
        example.job().apply(conf, "full-" + output.getName()).runFirst(inputs, output);
        return ItchyOutput.read(conf, output);
    }

    private static Configuration conf(ItchyMode mode) {
        Configuration conf = clusters.jobConf();
        conf.set(ItchyConf.MODE, mode.name());
        // Several splits per file, so QMC has splits to skip.
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 16 * 1024);
        // Tiny HBase cells, so that keys with many values or offsets are written and read in many chunks.
        conf.setInt(ItchyConf.CHUNK_BYTES, 256);
        // Small spills, so that a task writes several HFiles per family and their bulk load merges them.
        conf.setLong(ItchyConf.BULK_SPILL_BYTES, 32 * 1024);
        return conf;
    }

    private static List<String> uncheckedLines(Path file) {
        try {
            return lines(file);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> lines(Path file) throws Exception {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                lines.add(line);
            }
        }
        return lines;
    }
}
