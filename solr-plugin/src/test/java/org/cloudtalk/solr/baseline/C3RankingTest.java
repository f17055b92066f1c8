package org.cloudtalk.solr.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class C3RankingTest {
    @Test
    void theScoreIsC3sFormulaOverMovingAverages() {
        C3Ranking ranking = new C3Ranking(0.5, 2);
        ranking.received("a", 0.010, 0.004, 1);
        ranking.received("a", 0.020, 0.008, 3);
        // R = 0.015, S = 0.006, q = 2; one request outstanding from here, n = 2: q̂ = 1 + 1*2 + 2 = 5.
        ranking.sent("a");
        assertThat(ranking.score("a")).isCloseTo(0.015 - 0.006 + 125 * 0.006, within(1e-12));
    }

    @Test
    void slowerAndBusierReplicasGoLastAndUnknownOnesFirst() {
        C3Ranking ranking = new C3Ranking(0.3, 1);
        ranking.received("fast", 0.002, 0.001, 0);
        ranking.received("slow", 0.050, 0.030, 0);
        List<String> choices = new ArrayList<>(List.of("slow", "fast", "new"));
        ranking.order(choices, Function.identity());
        assertThat(choices).containsExactly("new", "fast", "slow");

        // Outstanding requests weigh cubically: enough of them push the fast replica behind the slow one.
        for (int i = 0; i < 4; i++) {
            ranking.sent("fast");
        }
        List<String> known = new ArrayList<>(List.of("fast", "slow"));
        ranking.order(known, Function.identity());
        assertThat(known).containsExactly("slow", "fast");
    }

    @Test
    void tiesKeepSolrsOrder() {
        C3Ranking ranking = new C3Ranking(0.3, 1);
        List<String> choices = new ArrayList<>(List.of("b", "a", "c"));
        ranking.order(choices, Function.identity());
        assertThat(choices).containsExactly("b", "a", "c");
    }
}
