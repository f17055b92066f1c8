package org.cloudtalk.itchy.qmc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.cloudtalk.itchy.ItchyConf;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.TechniquePlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QMC: a key pass maps the appended records to find their intermediate keys (and stores their offsets); the
 * driver looks those keys' offsets up in HBase in batches (each key once) and writes the relevant offsets per base
 * dataset, sorted; the main job then maps the appended records together with only the base records at those offsets
 * ({@link IncrementInputFormat}), dropping re-read keys the appended records did not produce when a record of the job
 * ever emitted several keys.
 */
public final class QmcPlan implements TechniquePlan {
    private static final Logger log = LoggerFactory.getLogger(QmcPlan.class);

    /** The key pass stores the appended records' offsets; the main job stores nothing. */
    @Override
    public boolean incrementJobStores() {
        return false;
    }

    @Override
    public Optional<Job> prepareIncrement(Driver driver, Increment increment, Job job)
            throws IOException, InterruptedException {
        Configuration conf = driver.configuration();
        JobRecord record = increment.record();
        Job keyPass = runKeyPass(driver, increment);
        Path keysDir = FileOutputFormat.getOutputPath(keyPass);
        long lookupStart = System.nanoTime();
        List<byte[]> keys = new ArrayList<>();
        KeyFiles.forEach(conf, keysDir, key -> keys.add(key.copyBytes()));
        OffsetLookup.Found found = new OffsetLookup(
                        increment.connection(),
                        ItchyStore.table(conf),
                        HexFormat.of().parseHex(record.signature()),
                        record.generations())
                .find(keys, record.keys(), conf.getInt(ItchyConf.LOOKUP_THREADS, 4));
        SortedMap<Integer, long[]> sorted = found.offsets();
        long relevant = RelevantOffsets.write(job.getConfiguration(), new Path(increment.scratch(), "offsets"), sorted);
        List<Path> inputs = new ArrayList<>(increment.files());
        for (JobRecord.Dataset dataset : increment.run().datasets()) {
            if (sorted.containsKey(dataset.id())) {
                inputs.add(new Path(dataset.path()));
            }
        }
        log.info("itchy {}: {} relevant base records in {} base files", driver.name(), relevant, sorted.size());
        driver.phase("offset lookups by " + (found.scanned() ? "scan" : "key"), lookupStart);
        if (record.multiEmit()) {
            job.getConfiguration().set(TaskKeys.RELEVANT_KEYS, keysDir.toString());
        }
        FileInputFormat.setInputPaths(job, inputs.toArray(Path[]::new));
        job.setInputFormatClass(IncrementInputFormat.class);
        return Optional.of(keyPass);
    }

    /**
     * Maps the appended records and writes their distinct intermediate keys; stores the appended records' offsets, as
     * a first job's reducers do, so that the main job's values need not carry offsets through its shuffle.
     */
    private static Job runKeyPass(Driver driver, Increment increment) throws IOException, InterruptedException {
        JobRecord record = increment.record();
        Path keysDir = new Path(increment.scratch(), "keys");
        Job keysJob = driver.newJob(increment.run().withOutputs(record.outputs()), true, "increment keys", keysDir);
        keysJob.getConfiguration().setClass(TaskKeys.USER_REDUCER, DistinctKeysReducer.class, Reducer.class);
        keysJob.getConfiguration().unset(Job.COMBINE_CLASS_ATTR); // the key pass needs no combining
        keysJob.setOutputFormatClass(SequenceFileOutputFormat.class);
        keysJob.setOutputKeyClass(BytesWritable.class);
        keysJob.setOutputValueClass(NullWritable.class);
        FileInputFormat.setInputPaths(keysJob, increment.files().toArray(Path[]::new));
        driver.run(keysJob, "increment " + increment.run().increment() + " (key pass)");
        return keysJob;
    }
}
