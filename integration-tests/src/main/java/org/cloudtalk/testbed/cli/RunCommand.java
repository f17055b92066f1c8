package org.cloudtalk.testbed.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.report.ExperimentRunner;

/**
 * {@code testbed run EXPERIMENT}: on the testbed that is up in the run directory, or on one it brings up for the
 * run and takes down afterwards (also when the run fails).
 */
final class RunCommand {
    private RunCommand() {}

    static int run(Options options, PrintStream out) {
        if (options.positional().size() != 1) {
            throw new TestbedException(
                    "run needs one experiment name (known: " + String.join(", ", Experiments.names()) + ")");
        }
        Experiment experiment = Experiments.named(options.positional().get(0));
        int repeats = options.number("repeat", 1);
        int seconds = options.number("seconds", 5);
        if (repeats < 1 || repeats > 1000) {
            throw new TestbedException("Invalid value " + repeats + " for --repeat: must be between 1 and 1000");
        }
        if (seconds < 1 || seconds > 3600) {
            throw new TestbedException("Invalid value " + seconds + " for --seconds: must be between 1 and 3600");
        }
        Path outDir = Path.of(options.text("out", "testbed-results"));
        List<Double> busy = options.fractions("busy", experiment.defaultBusy());
        Optional<Testbed> existing = Testbed.attach(TestbedMain.runDir(options));
        Testbed testbed = existing.orElseGet(() -> {
            out.println("bringing up a testbed for this run (it is taken down afterwards)");
            return Testbed.up(TestbedMain.config(options));
        });
        // A testbed brought up for this run goes down with it, also on Ctrl-C (its processes have sessions of
        // their own and would outlive the launcher).
        java.util.concurrent.atomic.AtomicBoolean down =
                new java.util.concurrent.atomic.AtomicBoolean(existing.isPresent());
        Thread hook = new Thread(
                () -> {
                    if (down.compareAndSet(false, true)) {
                        testbed.down();
                    }
                },
                "testbed-down");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            ExperimentRunner.Outcome outcome =
                    ExperimentRunner.run(experiment, testbed, busy, repeats, Duration.ofSeconds(seconds), outDir, out);
            out.println(outcome.passed() ? "PASSED" : "FAILED: see the runs above");
            return outcome.passed() ? 0 : 2;
        } finally {
            if (down.compareAndSet(false, true)) {
                testbed.down();
            }
            Runtime.getRuntime().removeShutdownHook(hook);
        }
    }
}
