package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.mapreduce.Job;

/**
 * Merge (§5.4.3): the increment maps and reduces the appended records only; its reducers merge each new output record
 * with the key's latest one, read where the first job or an earlier increment stored its position.
 */
final class MergePlan implements TechniquePlan {
    @Override
    public Optional<Job> prepareIncrement(ItchyJob driver, Increment increment, Job job) throws IOException {
        TechniquePlan.readAppended(job, increment);
        return Optional.empty();
    }
}
