package org.cloudtalk.itchy.technique;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/** What a technique's plan may ask of the driver running the increment: jobs of the user's classes, run and timed. */
public interface Driver {
    /** The Itchy job's name. */
    String name();

    /** The Itchy job's configuration. */
    Configuration configuration();

    /** A job of the Itchy job's classes whose tasks run {@code run}; {@code stores}: whether they store cells. */
    Job newJob(Run run, boolean stores, String what, Path output) throws IOException;

    /** Runs a job; if it fails, the first task failure its tasks recorded is the cause of the error. */
    void run(Job job, String what) throws IOException, InterruptedException;

    /** Records a step of the run in progress, begun at {@code startNanos}, for its report. */
    void phase(String step, long startNanos);
}
