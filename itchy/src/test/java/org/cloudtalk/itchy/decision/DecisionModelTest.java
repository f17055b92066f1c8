package org.cloudtalk.itchy.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.cloudtalk.itchy.ItchyMode;
import org.junit.jupiter.api.Test;

class DecisionModelTest {
    private static final double THRESHOLD = DecisionModel.DEFAULT_THRESHOLD;

    @Test
    void followsAlgorithmTwo() {
        DecisionModel.Sample cheapMapLargeValues = new DecisionModel.Sample(0.001, 75, 0.9, 10_000, 9_000);
        assertThat(DecisionModel.decide(cheapMapLargeValues, true, THRESHOLD)).isEqualTo(ItchyMode.MERGE);
        assertThat(DecisionModel.decide(cheapMapLargeValues, false, THRESHOLD)).isEqualTo(ItchyMode.QMC);
        DecisionModel.Sample dearMap = new DecisionModel.Sample(1, 75, 0.9, 10_000, 9_000);
        assertThat(DecisionModel.decide(dearMap, false, THRESHOLD)).isEqualTo(ItchyMode.MO);
        DecisionModel.Sample smallValues = new DecisionModel.Sample(0.001, DecisionModel.QMC_ENTRY_BYTES, 1, 10, 10);
        assertThat(DecisionModel.decide(smallValues, false, THRESHOLD)).isEqualTo(ItchyMode.MO);
    }

    @Test
    void anEmptySampleSaysSoInsteadOfShowingAveragesOverNothing() {
        DecisionModel.Sample empty = new DecisionModel.Sample(0, 0, 0, 0, 0);
        assertThat(empty).hasToString("no records to sample (empty input)");
        assertThat(DecisionModel.decide(empty, false, THRESHOLD)).isEqualTo(ItchyMode.MO);
        assertThat(new DecisionModel.Sample(0.5, 20, 0.25, 4, 1))
                .hasToString(
                        "avgRuntime=0.5000 ms, avgValSize=20.0 B, avgSelectivity=0.25 (4 records, 1 distinct keys)");
    }
}
