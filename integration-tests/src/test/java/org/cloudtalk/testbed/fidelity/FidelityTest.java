package org.cloudtalk.testbed.fidelity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FidelityTest {
    @Test
    void aRunMeasuredInTwoPhasesIsValidOnlyWhenBothAre() {
        Fidelity queries = Fidelity.judge(List.of(0.6, 0.5), Map.of(), 100_000_000L);
        Fidelity copiesFine = Fidelity.judge(List.of(0.4), Map.of(), 100_000_000L);
        Fidelity copiesStarved = Fidelity.judge(List.of(0.1, 0.2), Map.of(), 100_000_000L);

        Fidelity fine = Fidelity.both(queries, copiesFine, "during the copies");
        Fidelity starved = Fidelity.both(queries, copiesStarved, "during the copies");

        assertThat(fine.valid()).isTrue();
        assertThat(fine.meanIdle()).isEqualTo(0.4);
        assertThat(starved.valid()).isFalse();
        assertThat(starved.minIdle()).isEqualTo(0.1);
        assertThat(starved.problems()).containsExactly("CPU-bound: mean idle 15% < 25% (during the copies)");
    }
}
