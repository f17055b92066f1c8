package org.cloudtalk.itchy.technique;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.cloudtalk.itchy.store.JobRecord;

/**
 * How one technique sets up an increment's jobs: what the main job reads, what its tasks are told, and any job that
 * must run before it. {@code ItchyJob} orchestrates the run (checks, generation, the job record) around the plan, and
 * the {@link Driver} runs, loads and commits its jobs; the techniques' task-side work is in the tasks ({@code org.cloudtalk.itchy.task}), chosen by the mode.
 *
 * <p>Not sealed: each technique's plan lives in the technique's own package, and a sealed interface's implementations
 * must share its package outside a named module. The one place that must know every technique, the driver's choice
 * of a plan for an {@code ItchyMode}, is an exhaustive {@code switch} over the enum, which the compiler checks.
 */
public interface TechniquePlan {
    /** An increment in progress: the job's record before it, the run's settings, its appended files, scratch space. */
    record Increment(Connection connection, JobRecord record, Run run, List<Path> files, Path scratch) {
        public Increment {
            requireNonNull(connection, "connection is null");
            requireNonNull(record, "record is null");
            requireNonNull(run, "run is null");
            files = List.copyOf(files);
            requireNonNull(scratch, "scratch is null");
        }
    }

    /** The job reads the appended records, as the first job read the base input. */
    static void readAppended(Job job, Increment increment) throws IOException {
        FileInputFormat.setInputPaths(job, increment.files().toArray(Path[]::new));
        job.setInputFormatClass(TextInputFormat.class);
    }

    /** Whether the increment's main job stores incremental data (QMC's key pass stores instead). */
    default boolean incrementJobStores() {
        return true;
    }

    /**
     * Sets up the increment's main job {@code job} (its input, and what its tasks need), running any job that must
     * come first.
     *
     * @return the job run before the main one, if any: the one that mapped the appended records, whose stored cells
     *     are loaded once the main job succeeded
     */
    Optional<Job> prepareIncrement(Driver driver, Increment increment, Job job)
            throws IOException, InterruptedException;
}
