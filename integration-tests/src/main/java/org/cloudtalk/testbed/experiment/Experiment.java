package org.cloudtalk.testbed.experiment;

import java.util.List;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;

/**
 * An experiment on the testbed. The runner calls {@link #run} once per busy fraction and repeat on a testbed that is
 * up; the experiment starts its load and processes, measures, stops what it started, and says whether the
 * emulation kept up (a {@link org.cloudtalk.testbed.fidelity.FidelityMonitor} over the links its load saturates).
 */
public interface Experiment {
    String name();

    /** Busy fractions used when the command line gives none. */
    List<Double> defaultBusy();

    /** The metrics whose averages the chart plots against the busy fraction, all in {@link #yAxisTitle()}. */
    List<String> chartMetrics();

    String chartTitle();

    default String xAxisTitle() {
        return "busy hosts (%)";
    }

    /** The unit of {@link #chartMetrics()}. */
    default String yAxisTitle() {
        return "%";
    }

    /** Whether the chart also plots each metric's 99th percentile (dashed), for experiments about the tail. */
    default boolean chartP99() {
        return false;
    }

    /**
     * Refuses a testbed this experiment cannot run on, before one is brought up for it: a wrong flag value
     * ({@link TestbedException#invalidValue}). Runs again on the testbed itself, which may be one already up.
     */
    default void check(TestbedConfig config) {}

    RunResult run(RunContext context);
}
