package org.cloudtalk.testbed.experiment;

import java.util.List;
import org.cloudtalk.testbed.fidelity.Fidelity;

/** What one run of an experiment produced: raw measurements, its outcome checks and the emulator's verdict. */
public record RunResult(List<Measurement> measurements, List<Check> checks, Fidelity fidelity) {
    public RunResult {
        measurements = List.copyOf(measurements);
        checks = List.copyOf(checks);
    }

    /** Whether the run is valid and kept every promise. */
    public boolean passed() {
        return fidelity.valid() && checks.stream().allMatch(Check::passed);
    }
}
