package org.cloudtalk.itchy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
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
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.cloudtalk.itchy.decision.DecisionModel;
import org.cloudtalk.itchy.decision.MapSampler;
import org.cloudtalk.itchy.merge.MergePlan;
import org.cloudtalk.itchy.mo.MoPlan;
import org.cloudtalk.itchy.qmc.QmcInputs;
import org.cloudtalk.itchy.qmc.QmcPlan;
import org.cloudtalk.itchy.store.BulkCells;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.task.ItchyCombiner;
import org.cloudtalk.itchy.task.ItchyMapper;
import org.cloudtalk.itchy.task.ItchyOutputFormat;
import org.cloudtalk.itchy.task.ItchyReducer;
import org.cloudtalk.itchy.task.ItchyValue;
import org.cloudtalk.itchy.task.TaskFailure;
import org.cloudtalk.itchy.task.TaskJars;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.Run;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.TaskSettings;
import org.cloudtalk.itchy.technique.TechniquePlan;
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
    /** The steps of the run in progress, for its report. */
    private List<Phase> phases = new ArrayList<>();
    /** Run after the jobs, before the bulk load: tests make the load fail there. */
    private DriverStep beforeLoad = () -> {};
    /** Run between the bulk load and the commit: tests stand in for a driver that dies or races there. */
    private DriverStep beforeCommit = () -> {};

    /** A step of the driver's that tests put between two of a run's own. */
    interface DriverStep {
        void run() throws IOException, InterruptedException;
    }

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
            ItchyJob itchy = create(job.getConfiguration(), job.getJobName())
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

    ItchyJob beforeLoad(DriverStep hook) {
        this.beforeLoad = requireNonNull(hook, "hook is null");
        return this;
    }

    ItchyJob beforeCommit(DriverStep hook) {
        this.beforeCommit = requireNonNull(hook, "hook is null");
        return this;
    }

    public Configuration configuration() {
        return conf;
    }

    /** Runs the job over the base input, persisting the incremental data of the chosen technique. */
    public RunReport runFirst(List<Path> inputs, Path output) throws IOException, InterruptedException {
        checkDefined();
        ItchyConf.validate(conf);
        Class<? extends MergeFunction> mergeClass = mergeClass();
        ItchyMode requested = ItchyMode.parse(conf.get(ItchyConf.MODE, "auto"));
        List<Path> files = inputFiles.expand(inputs);
        if (files.isEmpty()) {
            throw new ItchyException("no input files under " + inputs);
        }
        String decision;
        String warning = "";
        ItchyMode mode;
        phases = new ArrayList<>();
        DecisionModel.Sample sample = null;
        if (requested != ItchyMode.OFF) {
            long sampleStart = System.nanoTime();
            sample = MapSampler.sampleDeterministic(
                    conf, mapper, files.get(0), conf.getInt(ItchyConf.SAMPLE_RECORDS, 10_000));
            phase("map sample", sampleStart);
        }
        if (requested == ItchyMode.AUTO) {
            double threshold = conf.getDouble(ItchyConf.QMC_THRESHOLD, DecisionModel.DEFAULT_THRESHOLD);
            mode = DecisionModel.decide(sample, mergeClass != null, threshold);
            decision = "decision model: " + sample + ", merge function " + (mergeClass != null ? "given" : "none")
                    + ", threshold " + threshold + " B/ms -> " + mode;
            warning = DecisionModel.cardinalityWarning(sample, mergeClass != null);
        } else {
            mode = requested;
            decision = "itchy.mode=" + mode.name().toLowerCase(java.util.Locale.ROOT)
                    + (sample == null ? "" : " (" + sample + ")");
        }
        Optional<String> notReReadable = mode == ItchyMode.QMC ? QmcInputs.cannotReRead(conf, files) : Optional.empty();
        if (notReReadable.isPresent()) {
            if (requested != ItchyMode.AUTO) {
                throw new ItchyException("itchy.mode=qmc: " + notReReadable.get()
                        + "; use itchy.mode=mo or auto, or uncompressed or gzip input");
            }
            mode = ItchyMode.MO;
            decision += "; but " + notReReadable.get() + " -> MO";
        }
        if (mode == ItchyMode.MERGE && mergeClass == null) {
            throw new ItchyException(
                    "itchy.mode=merge needs a merge function: ItchyJob.setMerge or " + ItchyConf.MERGE_CLASS);
        }
        if (!warning.isEmpty()) {
            decision += warning;
            log.warn("itchy {}: {}", name, decision);
        } else {
            log.info("itchy {}: first job with {} ({})", name, mode, decision);
        }
        if (mode == ItchyMode.OFF) {
            Job job = plainJob(files, output);
            run(job, "first job");
            return new RunReport(mode, decision, job.getCounters(), output, phases);
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
            phase("input checks", checkStart);
            int generation = ItchyStore.newGeneration(connection, conf, name);
            Job job = newJob(
                    new Run(mode, 0, generation, Generations.NONE, datasets, Set.of(), List.of(output.toString())),
                    true,
                    "first job",
                    output);
            FileInputFormat.setInputPaths(job, files.toArray(Path[]::new));
            job.setInputFormatClass(TextInputFormat.class);
            run(job, "first job");
            commit(
                    connection,
                    "the first job",
                    List.of(output),
                    Optional.empty(),
                    new JobRecord(
                            name,
                            signatureHex(),
                            mode,
                            new Generations(List.of(generation)),
                            multiEmit(job),
                            rowsWritten(job),
                            decision,
                            datasets,
                            List.of(inputFiles.qualified(output))),
                    output);
            return new RunReport(mode, decision, job.getCounters(), output, phases);
        }
    }

    /**
     * Processes appended files and writes the differential output; the incremental data is updated so the next
     * increment builds on this one. Nothing becomes visible unless the whole increment succeeds.
     */
    public RunReport runIncrement(List<Path> appended, Path differentialOutput)
            throws IOException, InterruptedException {
        checkDefined();
        ItchyConf.validate(conf);
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            JobRecord record = ItchyStore.record(connection, conf, name)
                    .orElseThrow(() -> new ItchyException("job " + name + " has no first job recorded in HBase table "
                            + ItchyStore.table(conf) + ": run runFirst over the base input first"));
            if (!record.signature().equals(signatureHex())) {
                throw new ItchyException(
                        "job " + name + " changed since its first job (signature " + record.signature()
                                + ", now " + signatureHex()
                                + "): mapper, reducer, combiner, merge function, key/value classes "
                                + "or itchy.signature.keys differ, so its incremental data does not apply; run a new first job");
            }
            phases = new ArrayList<>();
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
            phase("input checks", checkStart);
            clearFailedAttempt(differentialOutput);
            List<String> outputs = new ArrayList<>(record.outputs());
            outputs.add(inputFiles.qualified(differentialOutput));
            Path scratch = new Path(differentialOutput.getParent(), "_itchy-" + differentialOutput.getName());
            int generation = ItchyStore.newGeneration(connection, conf, name);
            FileSystem fs = scratch.getFileSystem(conf);
            try {
                TechniquePlan plan = plan(record.mode());
                Run run =
                        new Run(record.mode(), increment, generation, record.generations(), datasets, newIds, outputs);
                Job job = newJob(run, plan.incrementJobStores(), "increment " + increment, differentialOutput);
                Optional<Job> before = plan.prepareIncrement(
                        driver, new TechniquePlan.Increment(connection, record, run, files, scratch), job);
                run(job, "increment " + increment);
                long rowsWritten = rowsWritten(job);
                List<Path> stored = new ArrayList<>(List.of(differentialOutput));
                if (before.isPresent()) {
                    stored.add(FileOutputFormat.getOutputPath(before.get()));
                    rowsWritten += rowsWritten(before.get());
                }
                commit(
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
                                record.multiEmit() || multiEmit(before.orElse(job)),
                                record.keys() + rowsWritten,
                                record.decision(),
                                datasets,
                                outputs),
                        differentialOutput);
                log.info("itchy {}: increment {} committed ({} files)", name, increment, files.size());
                return new RunReport(record.mode(), record.decision(), job.getCounters(), differentialOutput, phases);
            } finally {
                fs.delete(scratch, true);
            }
        }
    }

    /**
     * What the techniques' plans may ask of this job's runs: a view, so that none of it becomes {@code ItchyJob}'s
     * public API.
     */
    private final Driver driver = new Driver() {
        @Override
        public String name() {
            return name;
        }

        @Override
        public Configuration configuration() {
            return conf;
        }

        @Override
        public Job newJob(Run run, boolean stores, String what, Path output) throws IOException {
            return ItchyJob.this.newJob(run, stores, what, output);
        }

        @Override
        public void run(Job job, String what) throws IOException, InterruptedException {
            ItchyJob.this.run(job, what);
        }

        @Override
        public void phase(String step, long startNanos) {
            ItchyJob.this.phase(step, startNanos);
        }
    };

    /** The plan of an increment's technique: exhaustive over the modes, so the compiler sees a technique added. */
    private static TechniquePlan plan(ItchyMode mode) {
        return switch (mode) {
            case QMC -> new QmcPlan();
            case MO -> new MoPlan();
            case MERGE -> new MergePlan();
            case AUTO, OFF -> throw new IllegalArgumentException("no incremental technique: " + mode);
        };
    }

    /** A job of this Itchy job's classes whose tasks run {@code run}; {@code stores}: whether they store cells. */
    private Job newJob(Run run, boolean stores, String what, Path output) throws IOException {
        Job job = Job.getInstance(conf, "itchy " + name + " " + what);
        Configuration jobConf = job.getConfiguration();
        jobConf.setClass(TaskKeys.USER_MAPPER, mapper, Mapper.class);
        jobConf.setClass(TaskKeys.USER_REDUCER, reducer, Reducer.class);
        jobConf.setClass(TaskKeys.USER_MAP_KEY, mapKey, Object.class);
        jobConf.setClass(TaskKeys.USER_MAP_VALUE, mapValue, Object.class);
        jobConf.set(TaskKeys.TASK_MODE, run.mode().name());
        jobConf.setBoolean(TaskKeys.STORES, stores);
        jobConf.set(TaskKeys.SIGNATURE, signatureHex());
        jobConf.setInt(TaskKeys.INCREMENT, run.increment());
        jobConf.setInt(TaskKeys.GENERATION, run.generation());
        jobConf.set(TaskKeys.VISIBLE, run.visible().encode());
        jobConf.setInt(TaskKeys.OUTPUT_DATASET, run.increment());
        jobConf.setLong(TaskKeys.TIMESTAMP, System.currentTimeMillis());
        jobConf.setStrings(
                TaskKeys.DATASETS,
                run.datasets().stream().map(d -> d.id() + "=" + d.path()).toArray(String[]::new));
        jobConf.setStrings(
                TaskKeys.NEW_DATASETS,
                run.newIds().stream().map(String::valueOf).toArray(String[]::new));
        List<String> outputDirs = new ArrayList<>();
        for (int i = 0; i < run.outputs().size(); i++) {
            outputDirs.add(i + "=" + run.outputs().get(i));
        }
        jobConf.setStrings(TaskKeys.OUTPUT_DIRS, outputDirs.toArray(String[]::new));
        Class<? extends MergeFunction> mergeClass = mergeClass();
        if (mergeClass != null) {
            jobConf.setClass(ItchyConf.MERGE_CLASS, mergeClass, MergeFunction.class);
        }
        job.setJarByClass(ItchyJob.class);
        TaskJars.ship(job, mapper, reducer, combiner, mergeClass, mapKey, mapValue, outputKey, outputValue);
        job.setMapperClass(ItchyMapper.class);
        job.setMapOutputKeyClass(mapKey);
        // Only QMC's values carry offsets through the shuffle; MO and Merge shuffle the user's values as they are.
        boolean wrapped = TaskSettings.of(jobConf).carriesOffsets();
        job.setMapOutputValueClass(wrapped ? ItchyValue.class : mapValue);
        if (combiner != null) {
            jobConf.setClass(TaskKeys.USER_COMBINER, combiner, Reducer.class);
            job.setCombinerClass(wrapped ? ItchyCombiner.class : combiner);
        }
        job.setReducerClass(ItchyReducer.class);
        job.setNumReduceTasks(reducers);
        job.setOutputKeyClass(outputKey);
        job.setOutputValueClass(outputValue);
        job.setOutputFormatClass(ItchyOutputFormat.class);
        FileOutputFormat.setOutputPath(job, output);
        return job;
    }

    private Job plainJob(List<Path> files, Path output) throws IOException {
        Job job = Job.getInstance(conf, "plain " + name);
        job.setJarByClass(ItchyJob.class);
        TaskJars.ship(job, mapper, reducer, combiner, mapKey, mapValue, outputKey, outputValue);
        job.setMapperClass(mapper);
        if (combiner != null) {
            job.setCombinerClass(combiner);
        }
        job.setReducerClass(reducer);
        job.setNumReduceTasks(reducers);
        job.setMapOutputKeyClass(mapKey);
        job.setMapOutputValueClass(mapValue);
        job.setOutputKeyClass(outputKey);
        job.setOutputValueClass(outputValue);
        job.setInputFormatClass(TextInputFormat.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileInputFormat.setInputPaths(job, files.toArray(Path[]::new));
        FileOutputFormat.setOutputPath(job, output);
        return job;
    }

    /** Loads what the job's tasks stored into HBase (under the run's generation: invisible until committed). */
    private void bulkLoad(Path output) throws IOException {
        long start = System.nanoTime();
        if (BulkCells.load(conf, ItchyStore.table(conf), output)) {
            phase("bulk load", start);
        }
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

    /** Records a step of the run in progress, begun at {@code startNanos}, for its report. */
    private void phase(String step, long startNanos) {
        phases.add(new Phase(step, seconds(startNanos)));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * Loads the cells the run's jobs stored (from the {@code stored} outputs) and commits the run; if it cannot (a
     * load failed, another run committed first, or the write failed), removes its output, so that the same run can
     * simply be repeated into the same directory: its cells stay invisible under their generation.
     */
    private void commit(
            Connection connection,
            String what,
            List<Path> stored,
            Optional<JobRecord> previous,
            JobRecord next,
            Path output)
            throws IOException {
        String notCommitted = what + " of job " + name + " was not committed: ";
        String repeat = "; nothing of it is visible, run it again over the same input";
        boolean committed;
        try {
            beforeLoad.run();
            for (Path jobOutput : stored) {
                bulkLoad(jobOutput);
            }
            beforeCommit.run();
            committed = ItchyStore.commit(connection, conf, previous, next);
        } catch (IOException | RuntimeException | InterruptedException e) {
            discard(output);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new ItchyException(notCommitted + e.getMessage() + repeat, e);
        }
        if (!committed) {
            discard(output);
            throw new ItchyException(notCommitted + "another " + (previous.isEmpty() ? "first job" : "increment")
                    + " of job " + name + " committed "
                    + (previous.isEmpty() ? "" : "increment " + next.committed() + " ")
                    + "first" + repeat);
        }
    }

    /** Best effort: a run that was not committed leaves no output behind to be mistaken for a result. */
    private void discard(Path output) {
        try {
            output.getFileSystem(conf).delete(output, true);
        } catch (IOException e) {
            log.warn("itchy {}: could not remove {} of a run that was not committed: {}", name, output, e.toString());
        }
    }

    /** Runs a job; if it fails, the first task failure its tasks recorded is the cause of the error. */
    private void run(Job job, String what) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path output = FileOutputFormat.getOutputPath(job);
        Path failures = new Path(output.getParent(), "_itchy-failures-" + output.getName());
        FileSystem fs = failures.getFileSystem(conf);
        fs.delete(failures, true);
        job.getConfiguration().set(TaskKeys.FAILURES, failures.toString());
        try {
            if (!job.waitForCompletion(false)) {
                Optional<TaskFailure> failure = TaskFailure.first(conf, failures);
                throw new ItchyException(
                        what + " of job " + name + " failed: "
                                + failure.map(TaskFailure::getMessage)
                                        .orElse(job.getStatus().getFailureInfo() + taskFailures(job))
                                + "; nothing of it is visible, fix the cause and run it again",
                        failure.orElse(null));
            }
        } catch (ClassNotFoundException e) {
            throw new ItchyException(what + " could not load a class: " + e.getMessage(), e);
        } finally {
            fs.delete(failures, true);
        }
        phase(what, start);
    }

    /** The first failed task's diagnostics: the job's own failure info is often just "NA". */
    private static String taskFailures(Job job) throws InterruptedException {
        try {
            for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
                if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
                    String[] diagnostics = job.getTaskDiagnostics(event.getTaskAttemptId());
                    return "; task " + event.getTaskAttemptId() + ": "
                            + (diagnostics == null || diagnostics.length == 0 ? "no diagnostics" : diagnostics[0]);
                }
            }
        } catch (IOException e) {
            return "; task diagnostics unavailable: " + e.getMessage();
        }
        return "";
    }

    /**
     * The job's identity: its name (two jobs of the same classes over different data must not share rows), its
     * classes and the configuration keys listed in itchy.signature.keys.
     */
    String signatureHex() {
        StringBuilder identity = new StringBuilder(name).append('\n');
        for (Class<?> type :
                Arrays.asList(mapper, reducer, combiner, mergeClass(), mapKey, mapValue, outputKey, outputValue)) {
            identity.append(type == null ? "-" : type.getName()).append('\n');
        }
        for (String key : conf.getTrimmedStrings("itchy.signature.keys")) {
            identity.append(key).append('=').append(conf.get(key, "")).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Class<? extends MergeFunction> mergeClass() {
        if (merge != null) {
            return merge;
        }
        return conf.getClass(ItchyConf.MERGE_CLASS, null, MergeFunction.class);
    }

    private void checkDefined() {
        if (mapper == null
                || reducer == null
                || mapKey == null
                || mapValue == null
                || outputKey == null
                || outputValue == null) {
            throw new ItchyException(
                    "job " + name + " needs a mapper, a reducer, and map output and output key/value classes");
        }
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

    /** A directory left by a failed attempt has no _SUCCESS marker: it is replaced. Anything else is kept. */
    private void clearFailedAttempt(Path output) throws IOException {
        FileSystem fs = output.getFileSystem(conf);
        if (fs.exists(output)) {
            if (fs.exists(new Path(output, "_SUCCESS"))) {
                throw new ItchyException("output " + output + " exists; choose a new directory for this increment");
            }
            fs.delete(output, true);
        }
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
