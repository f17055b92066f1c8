package org.cloudtalk.itchy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.cloudtalk.itchy.decision.TechniqueChoice;
import org.cloudtalk.itchy.merge.MergePlan;
import org.cloudtalk.itchy.mo.MoPlan;
import org.cloudtalk.itchy.qmc.QmcInputs;
import org.cloudtalk.itchy.qmc.QmcPlan;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.Run;
import org.cloudtalk.itchy.technique.TechniquePlan;
import org.cloudtalk.itchy.technique.UserJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ordinary MapReduce job — unchanged Mapper, Reducer, optional Combiner, text input — made incremental. Run the
 * first job over the base input; later, run increments over appended files and get a differential output (the keys
 * whose value changed, with their new value) by processing only what the appended records touch.
 *
 * <pre>{@code
 * ItchyJob job = ItchyJob.create(conf, "word-count")
 *         .mapper(TokenMapper.class).reducer(SumReducer.class).combiner(SumReducer.class)
 *         .mapOutput(Text.class, IntWritable.class).output(Text.class, IntWritable.class)
 *         .setMerge(SumMerge.class);
 * job.runFirst(List.of(base), baseOutput);
 * job.runIncrement(List.of(appended), differentialOutput);
 * }</pre>
 *
 * The technique comes from {@code itchy.mode} (default auto: the decision model). The job's identity — the classes and
 * the configuration keys listed in {@code itchy.signature.keys} — is its signature; an increment of a changed job is
 * refused, as is one after base input was modified rather than appended to.
 */
public final class ItchyJob {
    private static final Logger log = LoggerFactory.getLogger(ItchyJob.class);

    private final Configuration conf;
    private final String name;
    private final InputFiles inputFiles;
    private Class<? extends Mapper> mapper;
    private Class<? extends Reducer> reducer;
    private Class<? extends Reducer> combiner;
    private Class<? extends MergeFunction> merge;
    private Class<?> mapKey;
    private Class<?> mapValue;
    private Class<?> outputKey;
    private Class<?> outputValue;
    private int reducers = 1;
    /** Run after the jobs, before the bulk load: tests make the load fail there. */
    private Driver.Step beforeLoad = () -> {};
    /** Run between the bulk load and the commit: tests stand in for a driver that dies or races there. */
    private Driver.Step beforeCommit = () -> {};

    /** What a run did: the technique, why, and its counters. */
    public record RunReport(ItchyMode mode, String decision, Counters counters, Path output, List<Phase> phases) {
        public RunReport {
            phases = List.copyOf(phases);
        }

        public long counter(Enum<?> counter) {
            return counters.findCounter(counter).getValue();
        }
    }

    /** How long one step of a run took: the sample, a key pass, offset lookups, the job itself. */
    public record Phase(String name, double seconds) {
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%s %.2f s", name, seconds);
        }
    }

    private ItchyJob(Configuration conf, String name) {
        this.conf = new Configuration(requireNonNull(conf, "conf is null"));
        this.name = requireNonNull(name, "name is null");
        ItchyStore.checkName(name); // before a first job's map sample, not at its first HBase access
        this.inputFiles = new InputFiles(this.conf);
    }

    public static ItchyJob create(Configuration conf, String name) {
        return new ItchyJob(conf, name);
    }

    /**
     * Itchy for an ordinary configured MapReduce job, the one-line drop-in: its name, configuration (with
     * {@code itchy.mode} and {@code itchy.merge.class} if set), mapper, combiner, reducer, key and value classes and
     * number of reducers. Inputs and outputs stay the caller's: pass the job's to {@link #runFirst} and
     * {@link #runIncrement}.
     *
     * @throws ItchyException if the job reads other than text ({@link TextInputFormat}), which Itchy cannot re-read,
     *     or does not name its mapper and reducer
     */
    public static ItchyJob from(Job job) {
        requireNonNull(job, "job is null");
        Configuration conf = job.getConfiguration();
        ItchyConf.userClass(conf, MRJobConfig.INPUT_FORMAT_CLASS_ATTR, InputFormat.class);
        ItchyConf.userClass(conf, MRJobConfig.MAP_CLASS_ATTR, Mapper.class);
        ItchyConf.userClass(conf, MRJobConfig.COMBINE_CLASS_ATTR, Reducer.class);
        ItchyConf.userClass(conf, MRJobConfig.REDUCE_CLASS_ATTR, Reducer.class);
        for (String key : List.of(
                MRJobConfig.MAP_OUTPUT_KEY_CLASS,
                MRJobConfig.MAP_OUTPUT_VALUE_CLASS,
                MRJobConfig.OUTPUT_KEY_CLASS,
                MRJobConfig.OUTPUT_VALUE_CLASS)) {
            ItchyConf.userClass(conf, key, Object.class);
        }
        // Itchy's techniques work in the reducers; a map-only job has none.
        ItchyConf.positive(conf, MRJobConfig.NUM_REDUCES, Integer.MAX_VALUE);
        try {
            if (job.getInputFormatClass() != TextInputFormat.class) {
                throw new ItchyException(
                        "Itchy reads text input (" + TextInputFormat.class.getName() + "); job " + job.getJobName()
                                + " reads with " + job.getInputFormatClass().getName());
            }
            if (job.getMapperClass().equals(Mapper.class)
                    || job.getReducerClass().equals(Reducer.class)) {
                throw new ItchyException("job " + job.getJobName()
                        + " must set its own mapper and reducer classes: Itchy's techniques need an aggregation");
            }
            ItchyJob itchy = create(conf, job.getJobName())
                    .mapper(job.getMapperClass())
                    .reducer(job.getReducerClass())
                    .mapOutput(job.getMapOutputKeyClass(), job.getMapOutputValueClass())
                    .output(job.getOutputKeyClass(), job.getOutputValueClass())
                    .reducers(job.getNumReduceTasks());
            if (job.getCombinerClass() != null) {
                itchy.combiner(job.getCombinerClass());
            }
            return itchy;
        } catch (ClassNotFoundException e) {
            throw new ItchyException(
                    "job " + job.getJobName() + " names a class not on the classpath: " + e.getMessage(), e);
        }
    }

    public ItchyJob mapper(Class<? extends Mapper> mapper) {
        this.mapper = mapper;
        return this;
    }

    public ItchyJob reducer(Class<? extends Reducer> reducer) {
        this.reducer = reducer;
        return this;
    }

    public ItchyJob combiner(Class<? extends Reducer> combiner) {
        this.combiner = combiner;
        return this;
    }

    /** Makes the job a Merge-class job (§5.4.3); also settable as {@code itchy.merge.class}. */
    public ItchyJob setMerge(Class<? extends MergeFunction> merge) {
        this.merge = merge;
        return this;
    }

    public ItchyJob mapOutput(Class<?> key, Class<?> value) {
        this.mapKey = key;
        this.mapValue = value;
        return this;
    }

    public ItchyJob output(Class<?> key, Class<?> value) {
        this.outputKey = key;
        this.outputValue = value;
        return this;
    }

    public ItchyJob reducers(int reducers) {
        this.reducers = reducers;
        return this;
    }

    ItchyJob beforeLoad(Driver.Step hook) {
        this.beforeLoad = requireNonNull(hook, "hook is null");
        return this;
    }

    ItchyJob beforeCommit(Driver.Step hook) {
        this.beforeCommit = requireNonNull(hook, "hook is null");
        return this;
    }

    public Configuration configuration() {
        return conf;
    }

    /** Runs the job over the base input, persisting the incremental data of the chosen technique. */
    public RunReport runFirst(List<Path> inputs, Path output) throws IOException, InterruptedException {
        ItchyConf.validate(conf);
        UserJob job = userJob();
        List<Path> files = inputFiles.expand(inputs);
        if (files.isEmpty()) {
            throw new ItchyException("no input files under " + inputs);
        }
        Driver driver = new Driver(conf, job);
        TechniqueChoice choice = TechniqueChoice.of(driver, job, files);
        if (choice.mode() == ItchyMode.OFF) {
            OutputDirectory.prepare(conf, output, concat(inputs, files));
            Job plain = job.plainJob(conf, files, output);
            driver.run(plain, "first job");
            return new RunReport(choice.mode(), choice.decision(), plain.getCounters(), output, driver.phases());
        }
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            ItchyStore.ensureTable(connection, conf);
            if (ItchyStore.record(connection, conf, name).isPresent()) {
                throw new ItchyException(
                        "job " + name + " already ran its first job; run an increment, or use a new name");
            }
            long checkStart = System.nanoTime();
            List<JobRecord.Dataset> datasets = new ArrayList<>();
            for (InputFiles.FileState file : inputFiles.states(files)) {
                datasets.add(file.dataset(datasets.size() + 1, 0));
            }
            driver.phase("input checks", checkStart);
            OutputDirectory.prepare(conf, output, concat(inputs, files));
            int generation = ItchyStore.newGeneration(connection, conf, name);
            Job first = driver.newJob(
                    new Run(
                            choice.mode(),
                            0,
                            generation,
                            Generations.NONE,
                            datasets,
                            Set.of(),
                            List.of(output.toString())),
                    true,
                    "first job",
                    output);
            FileInputFormat.setInputPaths(first, files.toArray(Path[]::new));
            first.setInputFormatClass(TextInputFormat.class);
            driver.run(first, "first job");
            driver.commit(
                    connection,
                    "the first job",
                    List.of(output),
                    Optional.empty(),
                    new JobRecord(
                            name,
                            job.signature(conf),
                            choice.mode(),
                            new Generations(List.of(generation)),
                            multiEmit(first),
                            rowsWritten(first),
                            choice.decision(),
                            datasets,
                            List.of(inputFiles.qualified(output))),
                    output,
                    beforeLoad,
                    beforeCommit);
            return new RunReport(choice.mode(), choice.decision(), first.getCounters(), output, driver.phases());
        }
    }

    /**
     * Processes appended files and writes the differential output; the incremental data is updated so the next
     * increment builds on this one. Nothing becomes visible unless the whole increment succeeds.
     */
    public RunReport runIncrement(List<Path> appended, Path differentialOutput)
            throws IOException, InterruptedException {
        ItchyConf.validate(conf);
        UserJob job = userJob();
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            JobRecord record = ItchyStore.record(connection, conf, name)
                    .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded in HBase table "
                            + ItchyStore.table(conf) + ": run its first job over the base input before an increment"
                            + " (bin/itchy run " + name + " first ..., or ItchyJob.runFirst); a first job run with"
                            + " itchy.mode=off records nothing"));
            String signature = job.signature(conf);
            if (!record.signature().equals(signature)) {
                throw new ItchyException("job " + name + " changed since its first job (signature " + record.signature()
                        + ", now " + signature
                        + "): mapper, reducer, combiner, merge function, key/value classes, record delimiter,"
                        + " sort comparator or itchy.signature.keys differ, so its incremental data does not"
                        + " apply; run a new first job");
            }
            Driver driver = new Driver(conf, job);
            long checkStart = System.nanoTime();
            checkMode(record);
            inputFiles.checkUnchanged(record);
            Set<String> known =
                    record.datasets().stream().map(JobRecord.Dataset::path).collect(Collectors.toSet());
            List<Path> files = inputFiles.expand(appended);
            if (files.isEmpty()) {
                throw new ItchyException("no appended files under " + appended);
            }
            if (record.mode() == ItchyMode.QMC) {
                Optional<String> notReReadable = QmcInputs.cannotReRead(conf, files);
                if (notReReadable.isPresent()) {
                    throw new ItchyException("job " + name + " uses QMC, which re-reads appended records in later "
                            + "increments: " + notReReadable.get() + "; append it uncompressed or gzip-compressed");
                }
            }
            int increment = record.committed() + 1;
            List<JobRecord.Dataset> datasets = new ArrayList<>(record.datasets());
            Set<Integer> newIds = new HashSet<>();
            for (Path file : files) {
                String path = inputFiles.qualified(file);
                if (known.contains(path)) {
                    throw new ItchyException(
                            path + " was already processed by job " + name + "; append new records as new files");
                }
            }
            for (InputFiles.FileState file : inputFiles.states(files)) {
                JobRecord.Dataset dataset = file.dataset(record.nextDatasetId() + newIds.size(), increment);
                datasets.add(dataset);
                newIds.add(dataset.id());
            }
            driver.phase("input checks", checkStart);
            List<Path> processed = record.datasets().stream()
                    .map(dataset -> new Path(dataset.path()))
                    .toList();
            OutputDirectory.prepare(
                    conf,
                    differentialOutput,
                    concat(appended, files, processed),
                    record.outputs().stream().map(Path::new).toList());
            List<String> outputs = new ArrayList<>(record.outputs());
            outputs.add(inputFiles.qualified(differentialOutput));
            Path scratch = new Path(differentialOutput.getParent(), "_itchy-" + differentialOutput.getName());
            int generation = ItchyStore.newGeneration(connection, conf, name);
            FileSystem fs = scratch.getFileSystem(conf);
            // A run stopped by Ctrl-C or a kill ends before its finally: the scratch directory it left (QMC's key
            // pass output, say) would make this run's jobs refuse to start. Anything else there is not Itchy's.
            if (fs.exists(scratch) && fs.getFileStatus(scratch).isDirectory()) {
                fs.delete(scratch, true);
            }
            try {
                TechniquePlan plan = plan(record.mode());
                Run run =
                        new Run(record.mode(), increment, generation, record.generations(), datasets, newIds, outputs);
                Job main = driver.newJob(run, plan.incrementJobStores(), "increment " + increment, differentialOutput);
                Optional<Job> before = plan.prepareIncrement(
                        driver, new TechniquePlan.Increment(connection, record, run, files, scratch), main);
                driver.run(main, "increment " + increment);
                long rowsWritten = rowsWritten(main);
                List<Path> stored = new ArrayList<>(List.of(differentialOutput));
                if (before.isPresent()) {
                    stored.add(FileOutputFormat.getOutputPath(before.get()));
                    rowsWritten += rowsWritten(before.get());
                }
                driver.commit(
                        connection,
                        "increment " + increment,
                        stored,
                        Optional.of(record),
                        new JobRecord(
                                name,
                                record.signature(),
                                record.mode(),
                                record.plus(generation),
                                // QMC re-reads this increment's records in later ones: they may need post-filtering.
                                record.multiEmit() || multiEmit(before.orElse(main)),
                                record.keys() + rowsWritten,
                                record.decision(),
                                datasets,
                                outputs),
                        differentialOutput,
                        beforeLoad,
                        beforeCommit);
                log.info("itchy {}: increment {} committed ({} files)", name, increment, files.size());
                return new RunReport(
                        record.mode(), record.decision(), main.getCounters(), differentialOutput, driver.phases());
            } finally {
                fs.delete(scratch, true);
            }
        }
    }

    /** The plan of an increment's technique: exhaustive over the modes, so the compiler sees a technique added. */
    private static TechniquePlan plan(ItchyMode mode) {
        return switch (mode) {
            case QMC -> new QmcPlan();
            case MO -> new MoPlan();
            case MERGE -> new MergePlan();
            case AUTO, OFF -> throw new IllegalArgumentException("no incremental technique: " + mode);
        };
    }

    /** The job as defined so far; its merge function is also settable as {@code itchy.merge.class}. */
    private UserJob userJob() {
        Class<? extends MergeFunction> mergeClass =
                merge != null ? merge : conf.getClass(ItchyConf.MERGE_CLASS, null, MergeFunction.class);
        return new UserJob(
                name, mapper, reducer, combiner, mergeClass, mapKey, mapValue, outputKey, outputValue, reducers);
    }

    /** Whether a record the job mapped emitted several keys. */
    private static boolean multiEmit(Job job) throws IOException {
        return job.getCounters()
                        .findCounter(ItchyCounters.RECORDS_WITH_MULTIPLE_KEYS)
                        .getValue()
                > 0;
    }

    private static long rowsWritten(Job job) throws IOException {
        return job.getCounters().findCounter(ItchyCounters.HBASE_ROWS_WRITTEN).getValue();
    }

    /** An increment continues with its first job's technique; asking for another one is an error, not ignored. */
    private void checkMode(JobRecord record) {
        String asked = conf.get(ItchyConf.MODE);
        if (asked == null) {
            return;
        }
        ItchyMode mode = ItchyMode.parse(asked);
        if (mode != ItchyMode.AUTO && mode != record.mode()) {
            String chosen = record.mode().name().toLowerCase(java.util.Locale.ROOT);
            throw new ItchyException("itchy.mode=" + asked + ", but job " + name + " has used " + chosen
                    + " since its first job, and its incremental data is " + chosen + "'s: set itchy.mode to " + chosen
                    + " or auto for its increments, or run a new first job under another name");
        }
    }

    @SafeVarargs
    private static List<Path> concat(List<Path>... lists) {
        List<Path> all = new ArrayList<>();
        for (List<Path> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    /**
     * Deletes the HBase cells that runs of this job left behind when they failed or lost a commit race (invisible to
     * every reader, but taking space until deleted); see {@link ItchyStore#reclaim}. Safe while an increment runs.
     *
     * @return the number of cells deleted
     */
    public long reclaim() throws IOException {
        return reclaim(conf, name);
    }

    static long reclaim(Configuration conf, String name) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            JobRecord record = ItchyStore.record(connection, conf, name)
                    .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded"));
            return ItchyStore.reclaim(connection, conf, record);
        }
    }

    static Optional<JobRecord> recordOf(Configuration conf, String name) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            return ItchyStore.record(connection, conf, name);
        }
    }
}
