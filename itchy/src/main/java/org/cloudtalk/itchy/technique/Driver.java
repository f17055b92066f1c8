package org.cloudtalk.itchy.technique;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.cloudtalk.itchy.ItchyException;
import org.cloudtalk.itchy.ItchyJob.Phase;
import org.cloudtalk.itchy.store.BulkCells;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.task.TaskFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one run (a first job or an increment) of a user's job: builds its Hadoop jobs, runs them with their tasks'
 * failures as the cause of an error, times its steps, and loads and commits what they stored. A technique's plan
 * uses it to run the jobs that come before the main one.
 */
public final class Driver {
    private static final Logger log = LoggerFactory.getLogger(Driver.class);

    /** A step of the caller's put between two of the commit's own: tests stand in there for a driver that dies. */
    public interface Step {
        void run() throws IOException, InterruptedException;
    }

    private final Configuration conf;
    private final UserJob job;
    private final List<Phase> phases = new ArrayList<>();

    public Driver(Configuration conf, UserJob job) {
        this.conf = requireNonNull(conf, "conf is null");
        this.job = requireNonNull(job, "job is null");
    }

    /** The Itchy job's name. */
    public String name() {
        return job.name();
    }

    /** The Itchy job's configuration. */
    public Configuration configuration() {
        return conf;
    }

    /** A job of the Itchy job's classes whose tasks run {@code run}; {@code stores}: whether they store cells. */
    public Job newJob(Run run, boolean stores, String what, Path output) throws IOException {
        return job.itchyJob(conf, run, stores, what, output);
    }

    /** Runs a job; if it fails, the first task failure its tasks recorded is the cause of the error. */
    public void run(Job hadoopJob, String what) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path output = FileOutputFormat.getOutputPath(hadoopJob);
        Path failures = new Path(output.getParent(), "_itchy-failures-" + output.getName());
        FileSystem fs = failures.getFileSystem(conf);
        fs.delete(failures, true);
        hadoopJob.getConfiguration().set(TaskKeys.FAILURES, failures.toString());
        try {
            if (!hadoopJob.waitForCompletion(false)) {
                Optional<TaskFailure> failure = TaskFailure.first(conf, failures);
                throw new ItchyException(
                        what + " of job " + name() + " failed: "
                                + failure.map(TaskFailure::getMessage)
                                        .orElse(hadoopJob.getStatus().getFailureInfo() + taskFailures(hadoopJob))
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
    private static String taskFailures(Job hadoopJob) throws InterruptedException {
        try {
            for (TaskCompletionEvent event : hadoopJob.getTaskCompletionEvents(0, 1000)) {
                if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
                    String[] diagnostics = hadoopJob.getTaskDiagnostics(event.getTaskAttemptId());
                    return "; task " + event.getTaskAttemptId() + ": "
                            + (diagnostics == null || diagnostics.length == 0 ? "no diagnostics" : diagnostics[0]);
                }
            }
        } catch (IOException e) {
            return "; task diagnostics unavailable: " + e.getMessage();
        }
        return "";
    }

    /** Records a step of the run, begun at {@code startNanos}, for its report. */
    public void phase(String step, long startNanos) {
        phases.add(new Phase(step, (System.nanoTime() - startNanos) / 1e9));
    }

    /** The steps of the run so far. */
    public List<Phase> phases() {
        return List.copyOf(phases);
    }

    /**
     * Loads the cells the run's jobs stored (from the {@code stored} outputs) and commits the run as {@code next}
     * over {@code previous}; if it cannot (a load failed, another run committed first, or the write failed), removes
     * its {@code output}, so that the same run can simply be repeated into the same directory: its cells stay
     * invisible under their generation.
     *
     * @param what the run, as errors name it ("increment 3")
     * @param beforeLoad run before the bulk loads
     * @param beforeCommit run between the bulk loads and the commit
     */
    public void commit(
            Connection connection,
            String what,
            List<Path> stored,
            Optional<JobRecord> previous,
            JobRecord next,
            Path output,
            Step beforeLoad,
            Step beforeCommit)
            throws IOException {
        String notCommitted = what + " of job " + name() + " was not committed: ";
        String repeat = "; nothing of it is visible, run it again over the same input";
        boolean committed;
        try {
            beforeLoad.run();
            for (Path jobOutput : stored) {
                long start = System.nanoTime();
                if (BulkCells.load(conf, ItchyStore.table(conf), jobOutput)) {
                    phase("bulk load", start);
                }
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
                    + " of job " + name() + " committed "
                    + (previous.isEmpty() ? "" : "increment " + next.committed() + " ")
                    + "first"
                    + (previous.isEmpty()
                            // Run again, it would be refused: the job has its first run now.
                            ? "; nothing of it is visible: run its input as an increment of the job, or under a new name"
                            : repeat));
        }
        markFinished(output, what);
    }

    /** The run is committed: only now does its output get the {@code _SUCCESS} marker (MapReduce's own is off). */
    private void markFinished(Path output, String what) {
        Path marker = new Path(output, FileOutputCommitter.SUCCEEDED_FILE_NAME);
        try {
            output.getFileSystem(conf).create(marker, true).close();
        } catch (IOException e) {
            // Committed all the same: without the marker a later run into this directory would take it for a failed
            // run's leftover and replace it.
            throw new ItchyException(
                    what + " of job " + name() + " was committed, but " + marker + " could not be written ("
                            + e.getMessage() + "); create it (an empty file) before running anything into " + output,
                    e);
        }
    }

    /** Best effort: a run that was not committed leaves no output behind to be mistaken for a result. */
    private void discard(Path output) {
        try {
            output.getFileSystem(conf).delete(output, true);
        } catch (IOException e) {
            log.warn("itchy {}: could not remove {} of a run that was not committed: {}", name(), output, e.toString());
        }
    }
}
