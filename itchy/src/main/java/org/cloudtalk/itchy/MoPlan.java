package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * MO: the increment maps the appended records only; its map tasks note the keys they emit (in the scratch
 * directory), so that its reducers read those keys' stored intermediate values ahead of the new ones.
 */
final class MoPlan implements TechniquePlan {
    @Override
    public Optional<Job> prepareIncrement(ItchyJob driver, Increment increment, Job job) throws IOException {
        job.getConfiguration().set(ItchyConf.MO_TOUCHED_KEYS, new Path(increment.scratch(), "touched-keys").toString());
        TechniquePlan.readAppended(job, increment);
        return Optional.empty();
    }
}
