package org.cloudtalk.itchy.merge;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.mapreduce.Job;
import org.cloudtalk.itchy.technique.Driver;
import org.cloudtalk.itchy.technique.TechniquePlan;

/**
 * Merge (§5.4.3): the increment maps and reduces the appended records only; its reducers merge each new output record
 * with the key's latest one, read where the first job or an earlier increment stored its position.
 */
public final class MergePlan implements TechniquePlan {
    @Override
    public Optional<Job> prepareIncrement(Driver driver, Increment increment, Job job) throws IOException {
        TechniquePlan.readAppended(job, increment);
        return Optional.empty();
    }
}
