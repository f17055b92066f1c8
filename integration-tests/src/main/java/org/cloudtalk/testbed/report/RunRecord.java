package org.cloudtalk.testbed.report;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.testbed.experiment.RunResult;

/** One finished run: its busy fraction, its repeat number and what it produced. */
public record RunRecord(double busyFraction, int repeat, RunResult result) {
    public RunRecord {
        requireNonNull(result, "result is null");
    }
}
