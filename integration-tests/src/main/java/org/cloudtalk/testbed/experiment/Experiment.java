package org.cloudtalk.testbed.experiment;

import java.util.List;

/**
 * An experiment on the testbed. The runner calls {@link #run} once per busy fraction and repeat on a testbed that is
 * up; the experiment starts its load and processes, measures, stops what it started, and says whether the
 * emulation kept up (a {@link org.cloudtalk.testbed.fidelity.FidelityMonitor} over the links its load saturates).
 */
public interface Experiment {
    String name();

    /** Busy fractions used when the command line gives none. */
    List<Double> defaultBusy();

    /** The metrics whose averages the chart plots against the busy fraction, all in {@link #chartUnit()}. */
    List<String> chartMetrics();

    /** The unit of the chart's metrics, its y axis title. */
    default String chartUnit() {
        return "%";
    }

    String chartTitle();

    RunResult run(RunContext context);
}
