package org.cloudtalk.hadoop.hdfs.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WritePlannerTest {
    @Test
    void oneQueryPlacesNoMoreBlocksThanFitOnDistinctHostsAndWithinTheServersLimits() {
        assertThat(WritePlanner.mostThatFit(6, 3)).as("distinct hosts").isEqualTo(2);
        assertThat(WritePlanner.mostThatFit(30, 3))
                .as("30 candidates: 10 chains, 900 values each")
                .isEqualTo(10);
        assertThat(WritePlanner.mostThatFit(1000, 3))
                .as("3 x 1000 values per block: 3 blocks")
                .isEqualTo(3);
        assertThat(WritePlanner.mostThatFit(3000, 3))
                .as("one block even over the limit")
                .isEqualTo(1);
        assertThat(WritePlanner.mostThatFit(500, 1)).as("100 variables at most").isEqualTo(20);
    }
}
