package org.cloudtalk.itchy.mo;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.TechniquePlan;

/**
 * MO: the increment maps the appended records only; its map tasks note the keys they emit (in the scratch
 * directory), so that its reducers read those keys' stored intermediate values ahead of the new ones.
 */
public final class MoPlan implements TechniquePlan {
    @Override
    public Optional<Job> prepareIncrement(Driver driver, Increment increment, Job job) throws IOException {
        job.getConfiguration().set(TaskKeys.MO_TOUCHED_KEYS, new Path(increment.scratch(), "touched-keys").toString());
        TechniquePlan.readAppended(job, increment);
        return Optional.empty();
    }
}
