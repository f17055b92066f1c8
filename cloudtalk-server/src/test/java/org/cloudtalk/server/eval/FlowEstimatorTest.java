package org.cloudtalk.server.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.cloudtalk.server.eval.States.MIB;
import static org.cloudtalk.server.eval.States.host;
import static org.cloudtalk.server.eval.States.idle;
import static org.cloudtalk.server.eval.States.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.deadline.DeadlineExceededException;
import org.cloudtalk.server.eval.flow.FlowEstimate;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.junit.jupiter.api.Test;

class FlowEstimatorTest {
    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";
    private static final String C = "10.0.0.3";
    private final FlowEstimator estimator = new FlowEstimator();

    @Test
    void oneFlowTakesSizeOverAvailableBandwidth() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 100M", Map.of(A, host(20 * MIB, 0, 10 * MIB, 0, 0), B, idle(20 * MIB)));
        assertThat(estimate.completionSeconds()).isCloseTo(10, within(1e-6));
    }

    @Test
    void flowsSharingALinkShareItFairly() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 100M\nf2 10.0.0.1 -> 10.0.0.3 size 50M",
                Map.of(A, idle(10 * MIB), B, idle(100 * MIB), C, idle(100 * MIB)));
        // 5 MiB/s each until f2 ends at 10 s, then f1 alone at 10 MiB/s for its last 50 MiB.
        assertThat(estimate.flowEndSeconds()).containsExactly(15.0, 10.0);
    }

    @Test
    void mutualRateReferencesSettleOnTheSlowerSide() {
        FlowEstimate estimate = estimate(
                "f1 disk -> 10.0.0.1 size 100M rate r(f2)\nf2 10.0.0.1 -> 10.0.0.2 size sz(f1) rate r(f1)",
                Map.of(A, new HostLoad(10 * MIB, 0, 10 * MIB, 0, 5 * MIB, 0, 5 * MIB, 0), B, idle(10 * MIB)));
        assertThat(estimate.flowEndSeconds().get(0)).isCloseTo(20, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(1)).isCloseTo(20, within(1e-6));
    }

    /**
     * Issue 16: two rate-coupled pairs share 10.9.0.3's receive link. Filled as groups, f1-f2 stop at 10.9.0.1's
     * disk (150e6 - 100e6 bytes/s in use) and f3-f4 take the rest of the link, 75e6; filled flow by flow, the pairs'
     * rates swapped every pass and one flow ended up held to a finished partner's rate of 0.
     */
    @Test
    void rateCoupledPairsSharingALinkSettleAsGroups() {
        FlowEstimate estimate = estimate(Coupled.FLOWS.formatted("10.9.0.3", "10.9.0.3"), Coupled.hosts());
        double size = 100 * MIB;
        assertThat(estimate.flowEndSeconds().get(0)).isCloseTo(size / 50e6, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(1)).isCloseTo(size / 50e6, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(2)).isCloseTo(size / 75e6, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(3)).isCloseTo(size / 75e6, within(1e-6));
        assertThat(estimate.completionSeconds()).isCloseTo(2.097, within(1e-3));
    }

    @Test
    void aGroupWhosePartnerHasFinishedNeverCompletes() {
        // f2 must keep f1's rate, and f1 (10 MiB) ends long before f2's 100 MiB: f2 is then held to 0 for good.
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 10M rate r(f2)\nf2 10.0.0.1 -> 10.0.0.3 size 100M rate r(f1)",
                Map.of(A, idle(10 * MIB), B, idle(10 * MIB), C, idle(10 * MIB)));
        assertThat(estimate.flowEndSeconds().get(0)).isCloseTo(2, within(1e-6));
        assertThat(estimate.completionSeconds()).isInfinite();
    }

    @Test
    void stopsAtItsDeadlineAndAtItsEventLimit() {
        QueryModel chain = model(Coupled.rateChain(200));
        ClusterState state = new ClusterState(Coupled.chainHosts(200));
        long[] now = {0};
        // Each reading of the fake clock advances it 1 ms: the estimate must give up once 50 readings have passed.
        Deadline deadline = Deadline.after(Duration.ofMillis(50), () -> now[0] += 1_000_000);
        assertThatThrownBy(() -> estimator.estimate(chain, new Binding(Map.of()), state, deadline))
                .isInstanceOf(DeadlineExceededException.class);
        assertThat(now[0]).isLessThanOrEqualTo(52_000_000L);
        assertThatThrownBy(() -> new FlowEstimator(10).estimate(chain, new Binding(Map.of()), state))
                .isInstanceOf(CostLimitException.class)
                .hasMessageContaining("more than 10 flow events (limits.estimator.events)");
        assertThat(estimator.estimate(chain, new Binding(Map.of()), state).completionSeconds())
                .isFinite();
    }

    @Test
    void transferBoundKeepsAForwarderBehindItsSource() {
        // f1 can go at 10 MiB/s, f2 could go at 20 MiB/s but cannot forward what it has not received.
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 100M\nf2 10.0.0.2 -> 10.0.0.3 size sz(f1) transfer t(f1)",
                Map.of(
                        A,
                        host(100 * MIB, 0, 90 * MIB, 0, 0),
                        B,
                        idle(100 * MIB),
                        C,
                        host(100 * MIB, 80 * MIB, 0, 0, 0)));
        assertThat(estimate.flowEndSeconds().get(0)).isCloseTo(10, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(1)).isCloseTo(10, within(1e-6));
    }

    /**
     * A bound below what the flow has sent ({@code t(f1) - 50M} at the start) holds it until the bound catches up: f2
     * waits 5 s for f1's first 50M, then follows f1 at its rate; a bound that never reaches the flow's size, or never
     * rises above zero, leaves it unfinished.
     */
    @Test
    void aFlowAheadOfItsTransferBoundWaitsForIt() {
        Map<String, HostLoad> hosts =
                Map.of(A, idle(10 * MIB), B, idle(10 * MIB), C, idle(10 * MIB), "10.0.0.4", idle(10 * MIB));
        String source = "f1 10.0.0.1 -> 10.0.0.2 size 100M\n";
        FlowEstimate waits = estimate(source + "f2 10.0.0.3 -> 10.0.0.4 size 40M transfer t(f1) - 50M", hosts);
        assertThat(waits.flowEndSeconds().get(0)).isCloseTo(10, within(1e-6));
        assertThat(waits.flowEndSeconds().get(1)).isCloseTo(9, within(1e-6));
        assertThat(estimate(source + "f2 10.0.0.3 -> 10.0.0.4 size 60M transfer t(f1) - 50M", hosts)
                        .completionSeconds())
                .isInfinite();
        assertThat(estimate(source + "f2 10.0.0.3 -> 10.0.0.4 size 1M transfer t(f1) - 200M", hosts)
                        .completionSeconds())
                .isInfinite();
    }

    @Test
    void aSlowForwarderFinishesLater() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 100M\nf2 10.0.0.2 -> 10.0.0.3 size sz(f1) transfer t(f1)",
                Map.of(A, idle(10 * MIB), B, idle(100 * MIB), C, host(100 * MIB, 98 * MIB, 0, 0, 0)));
        assertThat(estimate.flowEndSeconds().get(0)).isCloseTo(10, within(1e-6));
        assertThat(estimate.completionSeconds()).isCloseTo(50, within(1e-6));
    }

    @Test
    void aFlowCanStartWhenAnotherEnds() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 10M\nf2 10.0.0.1 -> 10.0.0.3 size 20M start e(f1) + 1s",
                Map.of(A, idle(10 * MIB), B, idle(10 * MIB), C, idle(10 * MIB)));
        assertThat(estimate.flowEndSeconds()).containsExactly(1.0, 4.0);
    }

    @Test
    void endlessFlowsCompeteButDoNotCountTowardsCompletion() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 50M\nf2 10.0.0.1 -> 10.0.0.3",
                Map.of(A, idle(10 * MIB), B, idle(100 * MIB), C, idle(100 * MIB)));
        assertThat(estimate.completionSeconds()).isCloseTo(10, within(1e-6));
        assertThat(estimate.flowEndSeconds().get(1)).isNaN();
    }

    @Test
    void unknownSourceUsesOnlyTheReceiver() {
        FlowEstimate estimate = estimate(
                "f1 0.0.0.0 -> 10.0.0.1 size 40M rate r(f2)\nf2 10.0.0.1 -> disk size 40M rate r(f1)",
                Map.of(A, new HostLoad(8 * MIB, 0, 1, 1, 1, 0, 100 * MIB, 0)));
        assertThat(estimate.completionSeconds()).isCloseTo(5, within(1e-6));
    }

    @Test
    void aFlowThatCanNeverProceedNeverCompletes() {
        FlowEstimate estimate = estimate(
                "f1 10.0.0.1 -> 10.0.0.2 size 1M",
                Map.of(A, host(10 * MIB, 0, 10 * MIB, 0, 0), B, host(10 * MIB, 10 * MIB, 0, 0, 0)));
        assertThat(estimate.completionSeconds()).isInfinite();
    }

    /**
     * A search estimates many bindings with one prepared query: its cached capacities and resource numbering must
     * give each binding the estimate a fresh estimator gives, whatever was estimated before.
     */
    @Test
    void preparedQueryEstimatesEachBindingAsAFreshEstimate() {
        List<String> hosts = List.of(A, B, C, "10.0.0.4");
        QueryModel query = model("x1 = x2 = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)\n"
                + "f1 x1 -> x2 size 100M\nf2 x2 -> disk size sz(f1) transfer t(f1)\nf3 disk -> x1 size 20M");
        ClusterState state = States.random(new Random(16), hosts, 100 * MIB, false);
        FlowEstimator.Prepared prepared = estimator.prepare(query, state);
        for (int pass = 0; pass < 2; pass++) {
            for (String x1 : hosts) {
                for (String x2 : hosts) {
                    Binding binding = new Binding(Map.of("x1", x1, "x2", x2));
                    assertThat(prepared.estimate(binding, Deadline.none()))
                            .isEqualTo(estimator.estimate(query, binding, state));
                }
            }
        }
    }

    private FlowEstimate estimate(String flows, Map<String, HostLoad> hosts) {
        QueryModel query = model(flows);
        return estimator.estimate(query, new Binding(Map.of()), new ClusterState(hosts));
    }
}
