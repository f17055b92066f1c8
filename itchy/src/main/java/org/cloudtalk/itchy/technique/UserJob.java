package org.cloudtalk.itchy.technique;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.ItchyException;
import org.cloudtalk.itchy.MergeFunction;
import org.cloudtalk.itchy.task.ItchyCombiner;
import org.cloudtalk.itchy.task.ItchyMapper;
import org.cloudtalk.itchy.task.ItchyOutputFormat;
import org.cloudtalk.itchy.task.ItchyReducer;
import org.cloudtalk.itchy.task.ItchyValue;
import org.cloudtalk.itchy.task.PlainCombiner;
import org.cloudtalk.itchy.task.PlainMapper;
import org.cloudtalk.itchy.task.PlainReducer;
import org.cloudtalk.itchy.task.TaskJars;

/**
 * The user's MapReduce job as Itchy runs it: its name, classes and number of reducers; its identity (the signature
 * its stored data is keyed by); and the Hadoop jobs built from it, plain or wrapped in Itchy's tasks.
 *
 * @param merge the merge function (§5.4.3), or null when the job has none
 * @param combiner the combiner, or null
 */
@SuppressWarnings("rawtypes") // Hadoop's Mapper and Reducer classes are configured raw
public record UserJob(
        String name,
        Class<? extends Mapper> mapper,
        Class<? extends Reducer> reducer,
        Class<? extends Reducer> combiner,
        Class<? extends MergeFunction> merge,
        Class<?> mapKey,
        Class<?> mapValue,
        Class<?> outputKey,
        Class<?> outputValue,
        int reducers) {
    /** @throws ItchyException unless the job names a mapper, a reducer and its key and value classes */
    public UserJob {
        requireNonNull(name, "name is null");
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

    /**
     * Settings that change what a job's stored offsets and keys mean: the record delimiter (a record's offset and
     * text) and the sort and grouping comparators (which keys are one; a first job refuses grouping ones, so an
     * increment that adds one is a changed job). An increment under other values would mix the two.
     */
    private static final List<String> STORED_DATA_SETTINGS = List.of(
            "textinputformat.record.delimiter",
            MRJobConfig.KEY_COMPARATOR,
            MRJobConfig.GROUP_COMPARATOR_CLASS,
            MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS);

    /**
     * The job's identity: its name (two jobs of the same classes over different data must not share rows), its
     * classes, the settings its stored data depends on, and the configuration keys listed in itchy.signature.keys.
     */
    public String signature(Configuration conf) {
        StringBuilder identity = new StringBuilder(name).append('\n');
        for (Class<?> type :
                Arrays.asList(mapper, reducer, combiner, merge, mapKey, mapValue, outputKey, outputValue)) {
            identity.append(type == null ? "-" : type.getName()).append('\n');
        }
        // Settings the stored data depends on, where the job sets them (so jobs without them keep their identity).
        for (String key : STORED_DATA_SETTINGS) {
            String value = conf.get(key);
            if (value != null) {
                identity.append(key).append('=').append(value).append('\n');
            }
        }
        for (String key : conf.getTrimmedStrings(ItchyConf.SIGNATURE_KEYS)) {
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

    /** A job of these classes wrapped in Itchy's tasks, which run {@code run}; {@code stores}: whether they store. */
    public Job itchyJob(Configuration conf, Run run, boolean stores, String what, Path output) throws IOException {
        Job job = Job.getInstance(conf, "itchy " + name + " " + what);
        Configuration jobConf = job.getConfiguration();
        // The run marks its output finished itself, once committed (Driver.commit): a driver killed between the job
        // and the commit must not leave an output that looks like a result, nor one a rerun may not replace.
        jobConf.setBoolean(FileOutputCommitter.SUCCESSFUL_JOB_OUTPUT_DIR_MARKER, false);
        jobConf.setClass(TaskKeys.USER_MAPPER, mapper, Mapper.class);
        jobConf.setClass(TaskKeys.USER_REDUCER, reducer, Reducer.class);
        jobConf.setClass(TaskKeys.USER_MAP_KEY, mapKey, Object.class);
        jobConf.setClass(TaskKeys.USER_MAP_VALUE, mapValue, Object.class);
        jobConf.set(TaskKeys.TASK_MODE, run.mode().name());
        jobConf.setBoolean(TaskKeys.STORES, stores);
        jobConf.set(TaskKeys.SIGNATURE, signature(conf));
        jobConf.setInt(TaskKeys.INCREMENT, run.increment());
        jobConf.setInt(TaskKeys.GENERATION, run.generation());
        jobConf.set(TaskKeys.VISIBLE, run.visible().encode());
        jobConf.setInt(TaskKeys.OUTPUT_DATASET, run.increment());
        jobConf.setLong(TaskKeys.TIMESTAMP, System.currentTimeMillis());
        TaskSettings.setList(
                jobConf,
                TaskKeys.DATASETS,
                run.datasets().stream().map(d -> d.id() + "=" + d.path()).toList());
        TaskSettings.setList(
                jobConf,
                TaskKeys.NEW_DATASETS,
                run.newIds().stream().map(String::valueOf).toList());
        List<String> outputDirs = new ArrayList<>();
        for (int i = 0; i < run.outputs().size(); i++) {
            outputDirs.add(i + "=" + run.outputs().get(i));
        }
        TaskSettings.setList(jobConf, TaskKeys.OUTPUT_DIRS, outputDirs);
        if (merge != null) {
            jobConf.setClass(ItchyConf.MERGE_CLASS, merge, MergeFunction.class);
        }
        job.setJarByClass(ItchyMapper.class);
        TaskJars.ship(job, mapper, reducer, combiner, merge, mapKey, mapValue, outputKey, outputValue);
        job.setMapperClass(ItchyMapper.class);
        job.setMapOutputKeyClass(mapKey);
        // Only QMC's values carry offsets through the shuffle; MO and Merge shuffle the user's values as they are.
        boolean wrapped = TaskSettings.of(jobConf).carriesOffsets();
        job.setMapOutputValueClass(wrapped ? ItchyValue.class : mapValue);
        if (combiner != null) {
            jobConf.setClass(TaskKeys.USER_COMBINER, combiner, Reducer.class);
            job.setCombinerClass(wrapped ? ItchyCombiner.class : PlainCombiner.class);
        }
        job.setReducerClass(ItchyReducer.class);
        job.setNumReduceTasks(reducers);
        job.setOutputKeyClass(outputKey);
        job.setOutputValueClass(outputValue);
        job.setOutputFormatClass(ItchyOutputFormat.class);
        FileOutputFormat.setOutputPath(job, output);
        return job;
    }

    /** The job as it is, without Itchy ({@code itchy.mode=off}): {@code files} in, a sequence file out. */
    public Job plainJob(Configuration conf, List<Path> files, Path output) throws IOException {
        Job job = Job.getInstance(conf, "plain " + name);
        job.setJarByClass(ItchyMapper.class);
        TaskJars.ship(job, mapper, reducer, combiner, mapKey, mapValue, outputKey, outputValue);
        // The user's classes run as they are, inside wrappers that record what a task fails with for the driver.
        job.getConfiguration().setClass(TaskKeys.USER_MAPPER, mapper, Mapper.class);
        job.getConfiguration().setClass(TaskKeys.USER_REDUCER, reducer, Reducer.class);
        job.setMapperClass(PlainMapper.class);
        if (combiner != null) {
            job.getConfiguration().setClass(TaskKeys.USER_COMBINER, combiner, Reducer.class);
            job.setCombinerClass(PlainCombiner.class);
        }
        job.setReducerClass(PlainReducer.class);
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
}
