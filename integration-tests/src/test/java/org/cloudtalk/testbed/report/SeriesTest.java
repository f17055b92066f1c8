package org.cloudtalk.testbed.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.Check;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.experiment.Measurement;
import org.cloudtalk.testbed.experiment.RunContext;
import org.cloudtalk.testbed.experiment.RunResult;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeriesTest {
    private static final Fidelity VALID = Fidelity.judge(List.of(0.8), Map.of(), 100);
    private static final Fidelity CPU_BOUND = Fidelity.judge(List.of(0.1), Map.of(), 100);

    @TempDir
    Path dir;

    @Test
    void runsWrittenApartAreReadBackAndSummarisedTogetherAsIfRunAtOnce() {
        RunRecord first = record(0.3, 0, VALID, 1, 2, true);
        RunRecord second = record(0.5, 0, CPU_BOUND, 100, 200, false);
        RunRecord third = record(0.3, 1, VALID, 3, 4, true);
        RunRecord fourth = record(0.5, 1, VALID, 5, 6, false);
        write(List.of(first, second), dir.resolve("a"));
        write(List.of(third, fourth), dir.resolve("b"));

        Series merged = Series.merge(List.of(Series.read(dir.resolve("b")), Series.read(dir.resolve("a"))));

        assertThat(merged.experiment()).isEqualTo("exp");
        assertThat(merged.records()).containsExactly(first, second, third, fourth);
        assertThat(Summary.of(merged.records())).isEqualTo(Summary.of(List.of(first, second, third, fourth)));
    }

    @Test
    void aRunInTwoSeriesOrSeriesOfTwoExperimentsAreRefused() {
        write(List.of(record(0.3, 0, VALID, 1, 2, true)), dir.resolve("a"));
        write(List.of(record(0.3, 0, VALID, 3, 4, true)), dir.resolve("b"));
        Reports.write(
                experiment("other"),
                List.of(record(0.3, 1, VALID, 1, 2, true)),
                Summary.of(List.of()),
                dir.resolve("c"));

        assertThatThrownBy(() -> Series.merge(List.of(Series.read(dir.resolve("a")), Series.read(dir.resolve("b")))))
                .isInstanceOf(TestbedException.class)
                .hasMessage("Invalid value 0 for repeat: busy 0.3, repeat 0 is in two series (a later series needs"
                        + " another --first-repeat)");
        assertThatThrownBy(() -> Series.merge(List.of(Series.read(dir.resolve("a")), Series.read(dir.resolve("c")))))
                .isInstanceOf(TestbedException.class)
                .hasMessage("Invalid value other for experiment: the series hold exp");
    }

    @Test
    void aDirectoryWithoutResultsOrWithBrokenRowsIsRefusedWithItsName() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> Series.read(empty))
                .isInstanceOf(TestbedException.class)
                .hasMessage("Invalid value " + empty + " for series: expected one NAME-runs.csv in it, found 0");

        write(List.of(record(0.3, 0, VALID, 1, 2, true)), dir.resolve("a"));
        Path raw = dir.resolve("a").resolve("exp-raw.csv");
        Files.writeString(raw, Files.readString(raw).replace("2.0000", "two"));
        assertThatThrownBy(() -> Series.read(dir.resolve("a")))
                .isInstanceOf(TestbedException.class)
                .hasMessage("Invalid value " + raw + " for series: line 3: value two is not a number");

        write(List.of(record(0.3, 0, VALID, 1, 2, true)), dir.resolve("b"));
        Path runs = dir.resolve("b").resolve("exp-runs.csv");
        Files.writeString(runs, Files.readString(runs).replace("ok the sort", "the sort"));
        assertThatThrownBy(() -> Series.read(dir.resolve("b")))
                .isInstanceOf(TestbedException.class)
                .hasMessage("Invalid value " + runs + " for series: line 2: a check without its verdict (ok or"
                        + " FAILED): the sort succeeds: 4 reduces, on 2 hosts; none failed");
    }

    /** A run whose subjects and check details hold the CSV's separators and quotes, and the checks' separator. */
    private static RunRecord record(double busy, int repeat, Fidelity fidelity, double a, double b, boolean passed) {
        List<Measurement> rows =
                List.of(new Measurement("m", "host, \"one\"", a), new Measurement("m", "host; two", b));
        List<Check> checks = List.of(
                new Check("the sort succeeds", passed, "4 reduces, on 2 hosts; none failed"),
                new Check("answers", true, ""));
        return new RunRecord(busy, repeat, new RunResult(rows, checks, fidelity));
    }

    private void write(List<RunRecord> records, Path to) {
        Reports.write(experiment("exp"), records, Summary.of(records), to);
    }

    private static Experiment experiment(String name) {
        return new Experiment() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Double> defaultBusy() {
                return List.of(0.5);
            }

            @Override
            public List<String> chartMetrics() {
                return List.of("m");
            }

            @Override
            public String chartTitle() {
                return name;
            }

            @Override
            public RunResult run(RunContext context) {
                throw new UnsupportedOperationException("only its results are written here");
            }
        };
    }
}
