package org.cloudtalk.server.eval.refined;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.States;
import org.cloudtalk.server.eval.exhaustive.ExhaustiveEvaluator;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.topology.TopologyException;
import org.cloudtalk.server.topology.TopologyParser;
import org.junit.jupiter.api.Test;

class CompletionBoundTest {
    private final FlowEstimator estimator = new FlowEstimator();

    /** The bound is only useful for pruning if the estimator never finishes a binding sooner than it. */
    @Test
    void neverExceedsTheEstimatedCompletion() {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            hosts.add("10.0.0." + i);
        }
        QueryModel query = States.model("A = B = C = D = (" + String.join(" ", hosts) + ")\n"
                + "f1 disk -> A size 64M\nf2 A -> B size sz(f1) transfer t(f1)\nf3 B -> C size sz(f1) * 2\n"
                + "f4 D -> C size 10M start e(f1)\nf5 C -> disk size 5M rate r(f4)\nf6 A -> D");
        Random random = new Random(16);
        int tight = 0;
        for (int i = 0; i < 500; i++) {
            ClusterState state = States.random(random, hosts, 100 * States.MIB, i % 2 == 0);
            Map<String, String> binding = randomBinding(random, hosts);
            BindingSpace space = new BindingSpace(query);
            double bound = new CompletionBound(query, space, state).of(space.of(binding));
            double estimated =
                    estimator.estimate(query, new Binding(binding), state).completionSeconds();
            assertThat(bound).as("state %d", i).isPositive().isLessThanOrEqualTo(estimated * (1 + 1e-12));
            tight += bound >= estimated * (1 - 1e-9) ? 1 : 0;
        }
        assertThat(tight).as("bindings whose bound is the estimate itself").isPositive();
    }

    /**
     * Refined stops searching once its binding meets {@link CompletionBound#ofAnyBinding}, so that floor must never
     * be above the best binding's completion: checked against the exhaustive optimum on §5.3's reduce query (a group
     * of distinct variables) and a chain with a rate-coupled disk write.
     */
    @Test
    void floorIsNeverAboveTheOptimum() {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            hosts.add("10.0.0." + i);
        }
        String candidates = "(" + String.join(" ", hosts) + ")\n";
        List<QueryModel> queries = List.of(
                States.model("x1 = x2 = x3 = " + candidates
                        + "f1 0.0.0.0 -> x1 size 64M rate r(f2)\nf2 x1 -> disk size 64M rate r(f1)\n"
                        + "f3 0.0.0.0 -> x2 size 64M rate r(f4)\nf4 x2 -> disk size 64M rate r(f3)\n"
                        + "f5 0.0.0.0 -> x3 size 64M rate r(f6)\nf6 x3 -> disk size 64M rate r(f5)"),
                States.model("A = B = " + candidates
                        + "f1 10.0.9.1 -> A size 64M\nf2 A -> B size sz(f1) transfer t(f1)\n"
                        + "f3 B -> disk size sz(f1) rate r(f2)"));
        Random random = new Random(16);
        int tight = 0;
        for (int i = 0; i < 200; i++) {
            Map<String, HostLoad> loads = States.busy(random, hosts, 100 * States.MIB);
            loads.put("10.0.9.1", States.idle(1000 * States.MIB));
            ClusterState state = new ClusterState(loads);
            for (QueryModel query : queries) {
                double floor = new CompletionBound(query, new BindingSpace(query), state).ofAnyBinding();
                double optimum = new ExhaustiveEvaluator()
                        .evaluate(query, state)
                        .completionSeconds()
                        .orElseThrow();
                assertThat(floor).as("state %d", i).isPositive().isLessThanOrEqualTo(optimum * (1 + 1e-12));
                tight += floor >= optimum * (1 - 1e-9) ? 1 : 0;
            }
        }
        assertThat(tight).as("states whose optimum is the floor itself").isPositive();
    }

    /** Shared variables may sit on one host, where a flow between them uses nothing: no per-value bound then. */
    @Test
    void sharedVariablesHaveNoPerValueBound() {
        QueryModel query = States.model("shared A = B = (10.0.0.1 10.0.0.2)\nf1 A -> B size 64M");
        CompletionBound bound = new CompletionBound(
                query,
                new BindingSpace(query),
                States.random(new Random(1), List.of("10.0.0.1", "10.0.0.2"), 1e6, false));
        assertThat(bound.boundsBindings(0)).isFalse();
        assertThat(bound.ofAnyBinding()).isZero();
    }

    @Test
    void addsUpTheBytesEachResourceCarries() {
        // f1 and f3 both read 10.9.0.1's disk (50e6 bytes/s left): 200 MiB through it take 4.19 s at least.
        QueryModel query = States.model(
                "f1 disk -> 10.9.0.1 size 100M\nf2 10.9.0.2 -> 10.9.0.3 size 1M\nf3 disk -> 10.9.0.1 size sz(f1)");
        BindingSpace space = new BindingSpace(query);
        assertThat(new CompletionBound(query, space, new ClusterState(Coupled.hosts())).of(space.of(Map.of())))
                .isCloseTo(200 * States.MIB / 50e6, within(1e-9));
    }

    /**
     * Issue 19: with a topology, the bound also counts the uplinks a flow crosses (at their full rate, as the
     * estimator does), and stays below every estimate. Racks of two hosts behind 200 Mbit/s uplinks, pods of two racks
     * behind 100 Mbit/s; the unknown source is beyond the core.
     */
    @Test
    void overATopologyCountsUplinksAndNeverExceedsTheEstimate() throws Exception {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            hosts.add("10.0.0." + i);
        }
        FlowEstimator overTopology = overTopology(
                """
                        tier host rate 1Gbps latency 10us buffer 50pkt
                        tier rack rate 200Mbps latency 10us buffer 50pkt
                        tier pod rate 100Mbps latency 10us buffer 50pkt
                        rack r1 pod p1 10.0.0.1 10.0.0.2
                        rack r2 pod p1 10.0.0.3 10.0.0.4
                        rack r3 pod p2 10.0.0.5 10.0.0.6
                        rack r4 pod p2 10.0.0.7 10.0.0.8
                        """);
        QueryModel query = States.model("A = B = C = D = (" + String.join(" ", hosts) + ")\n"
                + "f1 disk -> A size 64M\nf2 A -> B size sz(f1) transfer t(f1)\nf3 B -> C size sz(f1) * 2\n"
                + "f4 D -> C size 10M start e(f1)\nf5 0.0.0.0 -> D size 20M\nf6 A -> D");
        Random random = new Random(19);
        int tight = 0;
        int aboveHosts = 0;
        for (int i = 0; i < 500; i++) {
            ClusterState state = States.random(random, hosts, 100 * States.MIB, i % 2 == 0);
            Map<String, String> binding = randomBinding(random, hosts);
            BindingSpace space = new BindingSpace(query);
            double bound =
                    new CompletionBound(query, space, state, overTopology.prepare(query, state)).of(space.of(binding));
            double hostsOnly = new CompletionBound(query, space, state).of(space.of(binding));
            double estimated =
                    overTopology.estimate(query, new Binding(binding), state).completionSeconds();
            assertThat(bound).as("state %d", i).isGreaterThanOrEqualTo(hostsOnly);
            assertThat(bound).as("state %d", i).isLessThanOrEqualTo(estimated * (1 + 1e-12));
            tight += bound >= estimated * (1 - 1e-9) ? 1 : 0;
            aboveHosts += bound > hostsOnly * (1 + 1e-9) ? 1 : 0;
        }
        assertThat(tight).as("bindings whose bound is the estimate itself").isPositive();
        assertThat(aboveHosts)
                .as("bindings an uplink bounds more than any host resource")
                .isPositive();
    }

    /**
     * Issue 19: three mappers in rack m, behind a 1 Gbit/s uplink, send 20 MiB to each of three reducers, whose
     * candidates are all in other racks: every binding sends the 180 MiB up that uplink, so no binding finishes in
     * under 180 MiB / 125e6 bytes/s; the floor says so, and the exhaustive optimum over the topology is never below it.
     */
    @Test
    void overATopologyTheFloorCountsUplinksEveryBindingCrosses() throws Exception {
        FlowEstimator overTopology = overTopology(
                """
                        tier host rate 10Gbps latency 10us buffer 50pkt
                        tier rack rate 1Gbps latency 10us buffer 50pkt
                        tier pod rate 100Gbps latency 10us buffer 50pkt
                        rack m pod p1 10.0.9.1-10.0.9.3
                        rack r1 pod p1 10.0.0.1-10.0.0.3
                        rack r2 pod p1 10.0.0.4-10.0.0.6
                        """);
        List<String> hosts = List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6");
        StringBuilder text = new StringBuilder("R1 = R2 = R3 = (" + String.join(" ", hosts) + ")\n");
        for (int m = 1; m <= 3; m++) {
            for (int r = 1; r <= 3; r++) {
                text.append("m%d%d 10.0.9.%d -> R%d size 20M%n".formatted(m, r, m, r));
            }
        }
        QueryModel query = States.model(text.toString());
        Random random = new Random(19);
        for (int i = 0; i < 20; i++) {
            Map<String, HostLoad> loads = States.busy(random, hosts, 1.25e9);
            for (int m = 1; m <= 3; m++) {
                loads.put("10.0.9." + m, States.idle(1.25e9));
            }
            ClusterState state = new ClusterState(loads);
            double floor = new CompletionBound(
                            query, new BindingSpace(query), state, overTopology.prepare(query, state))
                    .ofAnyBinding();
            double optimum = new ExhaustiveEvaluator(ExhaustiveEvaluator.DEFAULT_LIMIT, overTopology)
                    .evaluate(query, state)
                    .completionSeconds()
                    .orElseThrow();
            assertThat(floor).as("state %d", i).isGreaterThanOrEqualTo(180 * States.MIB / 125e6);
            assertThat(floor).as("state %d", i).isLessThanOrEqualTo(optimum * (1 + 1e-12));
        }
    }

    /** The flow estimator over a topology file's text. */
    private static FlowEstimator overTopology(String topology) throws TopologyException {
        return new FlowEstimator(FlowEstimator.DEFAULT_MAX_EVENTS, Optional.of(TopologyParser.parse(topology)));
    }

    /** Variables A to D on distinct hosts, at random. */
    private static Map<String, String> randomBinding(Random random, List<String> hosts) {
        List<String> shuffled = new ArrayList<>(hosts);
        Collections.shuffle(shuffled, random);
        Map<String, String> binding = new HashMap<>();
        for (int v = 0; v < 4; v++) {
            binding.put(String.valueOf((char) ('A' + v)), shuffled.get(v));
        }
        return binding;
    }
}
