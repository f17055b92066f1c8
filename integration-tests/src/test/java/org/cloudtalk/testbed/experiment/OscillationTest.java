package org.cloudtalk.testbed.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;

class OscillationTest {
    private static final Host A = Host.of("t", 10, 0);
    private static final Host B = Host.of("t", 10, 1);
    private static final Host C = Host.of("t", 10, 2);
    private static final Host D = Host.of("t", 10, 3);

    @Test
    void chainsSpreadEvenlyOverTheHostsAreOneFairShare() {
        List<Oscillation.Copy> copies = List.of(
                new Oscillation.Copy("w0-f0", List.of(A, B, C), 1),
                new Oscillation.Copy("w0-f1", List.of(D, A, B), 1),
                new Oscillation.Copy("w1-f0", List.of(C, D, A), 1),
                new Oscillation.Copy("w1-f1", List.of(B, C, D), 1));

        assertThat(Oscillation.busiestOverFair(copies, 4)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void everyChainThroughOneHostIsAsManyFairSharesAsItTakes() {
        List<Oscillation.Copy> copies = List.of(
                new Oscillation.Copy("w0-f0", List.of(A, B, C), 1),
                new Oscillation.Copy("w1-f0", List.of(A, C, D), 1),
                new Oscillation.Copy("w2-f0", List.of(A, B, D), 1));

        // A holds 3 of 9 replicas over 4 hosts: 3 / 2.25.
        assertThat(Oscillation.busiestOverFair(copies, 4)).isCloseTo(3 / 2.25, within(1e-9));
    }
}
