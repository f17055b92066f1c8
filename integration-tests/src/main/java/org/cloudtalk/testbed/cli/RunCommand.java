package org.cloudtalk.testbed.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.report.ExperimentRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code testbed run EXPERIMENT}: on the testbed that is up in the run directory, or on one it brings up for the
 * run and takes down afterwards (also when the run fails).
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Runs an experiment: raw CSV, a summary table and a chart per experiment under --out.")
final class RunCommand implements Callable<Integer> {
    @ParentCommand
    private TestbedMain main;

    @Parameters(
            index = "0",
            paramLabel = "EXPERIMENT",
            completionCandidates = Experiments.Names.class,
            description = "one of: ${COMPLETION-CANDIDATES}")
    private String name;

    @Option(names = "--repeat", paramLabel = "K", description = "runs per busy fraction (default 1)")
    private String repeat;

    @Option(
            names = "--first-repeat",
            paramLabel = "R",
            description = "number of the first run per busy fraction (default 0); each number draws its own busy"
                    + " hosts, so --first-repeat 2 --repeat 2 adds two new draws to an earlier --repeat 2 series")
    private String firstRepeat;

    @Option(
            names = "--busy",
            paramLabel = "F,...",
            description = "busy fractions, e.g. 0.1,0.5 (default: the experiment's)")
    private String busyFractions;

    @Option(names = "--seconds", paramLabel = "S", description = "length of each run (default 5)")
    private String runSeconds;

    @Option(
            names = "--cloudtalk-setting",
            paramLabel = "KEY=VALUE",
            description = "a setting for CloudTalk's plugins, repeatable; the HDFS experiments add it to the"
                    + " CloudTalk NameNode's hdfs-site.xml (e.g. cloudtalk.hdfs.write.evaluator=refined)")
    private List<String> cloudTalkSettings = new java.util.ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "where results go (default testbed-results)")
    private Path outDir = Path.of("testbed-results");

    @Mixin
    private TestbedOptions testbedOptions;

    @Mixin
    private RunDirOption runDir;

    /** Creates {@code dir} now if needed: results are written after the first run, which may take minutes. */
    private static void writableDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw TestbedException.invalidValue(dir, "--out", "cannot create the directory (" + e.getMessage() + ")");
        }
        if (!Files.isWritable(dir)) {
            throw TestbedException.invalidValue(dir, "--out", "the directory is not writable");
        }
    }

    @Override
    public Integer call() {
        PrintStream out = main.out;
        Experiment experiment = Experiments.named(name);
        int repeats = Values.number(repeat, "repeat", 1);
        int first = Values.number(firstRepeat, "first-repeat", 0);
        int seconds = Values.number(runSeconds, "seconds", 5);
        if (repeats < 1 || repeats > 1000) {
            throw TestbedException.invalidValue(repeats, "--repeat", "must be between 1 and 1000");
        }
        if (first < 0 || first > 1000) {
            throw TestbedException.invalidValue(first, "--first-repeat", "must be between 0 and 1000");
        }
        if (seconds < 1 || seconds > 3600) {
            throw TestbedException.invalidValue(seconds, "--seconds", "must be between 1 and 3600");
        }
        List<Double> busy = Values.fractions(busyFractions, "busy", experiment.defaultBusy());
        Map<String, String> settings = Values.settings(cloudTalkSettings, "cloudtalk-setting");
        Optional<Testbed> existing = Testbed.attach(runDir.path());
        Optional<TestbedOptions.Given> shaping = testbedOptions.firstGiven();
        if (existing.isPresent() && shaping.isPresent()) {
            // The run would use the testbed that is up, not the one the flags describe: say so rather than ignore them.
            TestbedConfig up = existing.get().config();
            throw TestbedException.invalidValue(
                    shaping.get().value(),
                    shaping.get().flag(),
                    "a testbed is already up in " + runDir.path() + " (" + up.hosts() + " hosts at " + up.rateMbit()
                            + " Mbit/s): leave the testbed's flags out to run on it, or take it down first"
                            + " (testbed down)");
        }
        TestbedConfig config = existing.map(Testbed::config).orElseGet(() -> testbedOptions.config(runDir.path()));
        // Everything a run can refuse, refused before minutes of bringing a testbed up.
        experiment.check(config);
        writableDirectory(outDir);
        Testbed testbed = existing.orElseGet(() -> {
            out.println("bringing up a testbed for this run (it is taken down afterwards)");
            return Testbed.up(config);
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
            ExperimentRunner.Outcome outcome = ExperimentRunner.run(
                    experiment, testbed, busy, first, repeats, Duration.ofSeconds(seconds), settings, outDir, out);
            out.println(outcome.passed() ? "PASSED" : "FAILED: see the runs above");
            return outcome.passed() ? 0 : 2;
        } finally {
            if (down.compareAndSet(false, true)) {
                testbed.down();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // A TERM interrupted the run: the hook (or this block) has taken the testbed down.
            }
        }
    }
}
