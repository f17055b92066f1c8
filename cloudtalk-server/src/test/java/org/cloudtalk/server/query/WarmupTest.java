package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.cloudtalk.client.api.EvaluatorName;
import org.junit.jupiter.api.Test;

class WarmupTest {
    @Test
    void answersQueriesWithEveryEvaluatorWithinItsBudget() {
        long start = System.nanoTime();
        int answered = Warmup.run(Duration.ofMillis(500));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        // Three queries per evaluator kind in each round: every kind it warms ran at least once.
        assertThat(Warmup.WARMED).contains(EvaluatorName.HEURISTIC, EvaluatorName.REFINED);
        assertThat(answered).isGreaterThanOrEqualTo(3 * Warmup.WARMED.size());
        assertThat(elapsedMillis).isLessThan(5_000);
    }
}
