package org.cloudtalk.client.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EvaluatorNameTest {
    @Test
    void everyEvaluatorIsFoundByItsWireName() {
        for (EvaluatorName evaluator : EvaluatorName.values()) {
            assertThat(EvaluatorName.fromWireName(evaluator.wireName())).isSameAs(evaluator);
        }
        assertThat(EvaluatorName.REFINED.wireName()).isEqualTo("refined");
    }

    @Test
    void anUnknownNameIsRefusedWithTheNamesThereAre() {
        assertThatThrownBy(() -> EvaluatorName.fromWireName("BOGUS"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown evaluator 'BOGUS'; use heuristic, flow, exhaustive, refined or packet");
    }
}
