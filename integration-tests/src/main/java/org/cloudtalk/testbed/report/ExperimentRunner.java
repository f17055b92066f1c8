package org.cloudtalk.testbed.report;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.experiment.Check;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.experiment.RunContext;
import org.cloudtalk.testbed.experiment.RunResult;
import org.cloudtalk.testbed.fidelity.CpuIdleSampler;

/**
 * Runs an experiment at each busy fraction, {@code repeats} times numbered from {@code firstRepeat} (the number seeds
 * the run's random source, so it picks the busy hosts), on a testbed that is up; prints progress (run i of
 * K, elapsed, estimated remaining) and each run's verdict; writes raw CSV, the summary and the chart to {@code out}.
 */
public final class ExperimentRunner {
    private static final double QUIET_IDLE = 0.5;

    private ExperimentRunner() {}

    /** The finished runs and their summary. */
    public record Outcome(List<RunRecord> records, Summary summary) {
        /** Whether at least one run was valid and every valid run kept the experiment's promises. */
        public boolean passed() {
            List<RunRecord> valid =
                    records.stream().filter(r -> r.result().fidelity().valid()).toList();
            return !valid.isEmpty() && valid.stream().allMatch(r -> r.result().passed());
        }
    }

    public static Outcome run(
            Experiment experiment,
            Testbed testbed,
            List<Double> busyFractions,
            int firstRepeat,
            int repeats,
            Duration measure,
            Map<String, String> cloudTalkSettings,
            Path out,
            PrintStream console) {
        List<RunRecord> records = new ArrayList<>();
        int total = busyFractions.size() * repeats;
        long start = System.nanoTime();
        if (!cloudTalkSettings.isEmpty()) {
            console.println("CloudTalk settings: " + cloudTalkSettings);
        }
        for (int repeat = firstRepeat; repeat < firstRepeat + repeats; repeat++) {
            for (double busy : busyFractions) {
                int done = records.size();
                double elapsed = (System.nanoTime() - start) / 1e9;
                console.printf(
                        "%s: run %d of %d (busy %.0f%%, repeat %d in the CSVs), elapsed %.0f s%s%n",
                        experiment.name(),
                        done + 1,
                        total,
                        busy * 100,
                        repeat,
                        elapsed,
                        done == 0 ? "" : String.format(", about %.0f s left", elapsed / done * (total - done)));
                awaitQuiet(console);
                RunResult result = experiment.run(new RunContext(
                        testbed,
                        busy,
                        repeat,
                        measure,
                        new Random(repeat * 1_000_003L + Math.round(busy * 1000)),
                        cloudTalkSettings));
                records.add(new RunRecord(busy, repeat, result));
                console.println("  " + verdict(result));
                // After every run: a later run that aborts (or a Ctrl-C) leaves the runs so far on disk.
                Reports.write(experiment, records, Summary.of(records), out);
            }
        }
        Summary summary = Summary.of(records);
        console.print(summary.toMarkdown());
        console.println("results in " + out.toAbsolutePath());
        return new Outcome(records, summary);
    }

    /**
     * Waits (up to 20 s) until the machine has been at least half idle for a second, so that a run does not start
     * while JVMs of the testbed or of the previous run are still starting or compiling.
     */
    private static void awaitQuiet(PrintStream console) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        try (CpuIdleSampler cpu = CpuIdleSampler.start(250)) {
            while (System.nanoTime() < deadline) {
                RunContext.pause(Duration.ofMillis(1000));
                List<Double> shares = cpu.shares();
                List<Double> last = shares.subList(Math.max(0, shares.size() - 4), shares.size());
                if (last.size() == 4 && last.stream().allMatch(share -> share >= QUIET_IDLE)) {
                    return;
                }
            }
        }
        console.println("  (the machine did not become quiet within 20 s; running anyway)");
    }

    private static String verdict(RunResult result) {
        StringBuilder line = new StringBuilder();
        var fidelity = result.fidelity();
        line.append(fidelity.valid() ? "valid" : "INVALID (" + RunText.problems(fidelity.problems()) + ")");
        line.append(String.format(", idle CPU %.0f%%", fidelity.meanIdle() * 100));
        // NaN when the run saturates no link on purpose (the fidelity check then judges the CPU only).
        if (!Double.isNaN(fidelity.worstLinkShare())) {
            line.append(String.format(", worst saturated link %.0f%% of rate", fidelity.worstLinkShare() * 100));
        }
        for (Check check : result.checks()) {
            line.append("; ")
                    .append(RunText.verdict(check))
                    .append(check.name())
                    .append(" (")
                    .append(check.detail())
                    .append(')');
        }
        return line.toString();
    }
}
