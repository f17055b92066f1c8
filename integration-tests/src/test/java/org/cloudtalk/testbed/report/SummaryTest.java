package org.cloudtalk.testbed.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.experiment.Check;
import org.cloudtalk.testbed.experiment.Measurement;
import org.cloudtalk.testbed.experiment.RunResult;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;
import org.junit.jupiter.api.Test;

class SummaryTest {
    private static final Fidelity VALID = Fidelity.judge(List.of(0.8), Map.of(), 100);
    private static final Fidelity CPU_BOUND = Fidelity.judge(List.of(0.1, 0.2), Map.of(), 100);

    @Test
    void summarisesValidRunsOnlyAndCountsTheOthers() {
        Summary summary = Summary.of(List.of(
                record(0, VALID, 1, 2, 3, 4),
                record(1, VALID, 5, 6, 7, 8),
                record(2, CPU_BOUND, 1000, 1000, 1000, 1000)));
        assertThat(summary.runs()).isEqualTo(3);
        assertThat(summary.invalidRuns()).isEqualTo(1);
        Summary.Row row = summary.rows().get(0);
        assertThat(row.values()).isEqualTo(8);
        assertThat(row.avg()).isEqualTo(4.5);
        assertThat(row.p50()).isEqualTo(4);
        assertThat(row.p99()).isEqualTo(8);
        assertThat(row.spread()).isEqualTo(4); // repeat means 2.5 and 6.5
        assertThat(summary.toMarkdown()).contains("3 runs, 1 left out as invalid");
    }

    @Test
    void theMedianOfPerRepeatTailsIgnoresOneRunsOutlier() {
        Summary summary = Summary.of(
                List.of(record(0, VALID, 1, 2, 10), record(1, VALID, 1, 2, 500), record(2, VALID, 1, 2, 20)));
        Summary.Row row = summary.rows().get(0);
        assertThat(row.p99()).isEqualTo(500);
        assertThat(row.repeatP99Median()).isEqualTo(20);
        assertThat(summary.toMarkdown()).contains("| 50% | m | 9 | 59.89 | 2.00 | 500.00 | 20.00 | 163.33 |");
    }

    @Test
    void aLinkBelowNinetyPercentOrABusyCpuMakesARunInvalid() {
        Link link = new Link(Host.of("cttb", 77, 0), Link.Direction.UPLOAD);
        assertThat(Fidelity.judge(List.of(0.5), Map.of(link, 95.0), 100).valid())
                .isTrue();
        Fidelity slow = Fidelity.judge(List.of(0.5), Map.of(link, 89.0), 100);
        assertThat(slow.valid()).isFalse();
        assertThat(slow.problems()).containsExactly("cttb-h0 up carried 89% of its rate (< 90%)");
        assertThat(CPU_BOUND.valid()).isFalse();
        assertThat(CPU_BOUND.problems()).containsExactly("CPU-bound: mean idle 15% < 25%");
    }

    private static RunRecord record(int repeat, Fidelity fidelity, double... values) {
        List<Measurement> rows = java.util.Arrays.stream(values)
                .mapToObj(v -> new Measurement("m", "s", v))
                .toList();
        return new RunRecord(0.5, repeat, new RunResult(rows, List.of(new Check("c", true, "")), fidelity));
    }
}
