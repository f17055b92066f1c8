package org.cloudtalk.server.eval.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.cloudtalk.server.eval.States.MIB;
import static org.cloudtalk.server.eval.States.idle;
import static org.cloudtalk.server.eval.States.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Semaphore;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.States;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.eval.refined.RefinedEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyException;
import org.cloudtalk.server.topology.TopologyParser;
import org.junit.jupiter.api.Test;

/** The flow estimator over a topology: flows share the rack and pod uplinks they cross, on hand-made cases. */
class TopologyFlowEstimatorTest {
    private static final double SIZE = 100 * MIB;
    /** A 10 Gbit/s NIC in bytes/s. */
    private static final double TEN_GBIT = 1.25e9;

    /** Two racks of one pod, hosts on 10 Gbit/s links, each rack's uplink 1 Gbit/s; the pod's is ample. */
    private static final String GIGABIT_UPLINKS =
            """
            tier host rate 10Gbps latency 10us buffer 50pkt
            tier rack rate 1Gbps latency 10us buffer 50pkt
            tier pod rate 100Gbps latency 20us buffer 50pkt
            rack r1 pod p1 10.0.0.1-10.0.0.4
            rack r2 pod p1 10.0.1.1-10.0.1.4
            """;

    @Test
    void twoFlowsLeavingARackShareItsUplink() throws Exception {
        String query = "f1 10.0.0.1 -> 10.0.1.1 size 100M\nf2 10.0.0.2 -> 10.0.1.2 size 100M";
        Map<String, HostLoad> hosts = idleHosts(TEN_GBIT, "10.0.0.1", "10.0.0.2", "10.0.1.1", "10.0.1.2");

        // 500 Mbit/s each through the 1 Gbit/s uplink, though their NICs could do 10 Gbit/s.
        assertEnds(estimate(GIGABIT_UPLINKS, query, hosts), SIZE / 62.5e6, SIZE / 62.5e6);
        assertEnds(estimate(null, query, hosts), SIZE / TEN_GBIT, SIZE / TEN_GBIT);
    }

    @Test
    void aFlowWithinARackIsNotSlowedByItsUplink() throws Exception {
        String query =
                "f1 10.0.0.1 -> 10.0.1.1 size 100M\nf2 10.0.0.2 -> 10.0.1.2 size 100M\nf3 10.0.0.3 -> 10.0.0.4 size 100M";
        Map<String, HostLoad> hosts =
                idleHosts(TEN_GBIT, "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.1.1", "10.0.1.2");

        assertEnds(estimate(GIGABIT_UPLINKS, query, hosts), SIZE / 62.5e6, SIZE / 62.5e6, SIZE / TEN_GBIT);
    }

    /**
     * Three tiers, rates from oversubscription: racks of four 1 Gbit/s hosts with 2:1 uplinks (2 Gbit/s), pods of two
     * racks with 4:1 uplinks (1 Gbit/s). f1 and f2 leave pod p1 and share its uplink, 500 Mbit/s each; f3 and f4 stay in
     * the pod and share what f1 leaves of r1's uplink, 750 Mbit/s each, below their NICs' 1 Gbit/s.
     */
    @Test
    void threeTiersWithOversubscription() throws Exception {
        String topology =
                """
                tier host rate 1Gbps latency 10us buffer 50pkt
                tier rack oversubscription 2 latency 10us buffer 50pkt
                tier pod oversubscription 4 latency 20us buffer 50pkt
                rack r1 pod p1 10.1.1.1-10.1.1.4
                rack r2 pod p1 10.1.2.1-10.1.2.4
                rack r3 pod p2 10.2.1.1-10.2.1.4
                rack r4 pod p2 10.2.2.1-10.2.2.4
                """;
        Topology parsed = TopologyParser.parse(topology);
        assertThat(parsed.rackUplinkRate(parsed.racks().get(0))).isEqualTo(250e6);
        assertThat(parsed.podUplinkRate("p1")).isEqualTo(125e6);
        String query =
                """
                f1 10.1.1.1 -> 10.2.1.1 size 100M
                f2 10.1.2.1 -> 10.2.2.1 size 100M
                f3 10.1.1.2 -> 10.1.2.2 size 100M
                f4 10.1.1.3 -> 10.1.2.3 size 100M
                """;
        Map<String, HostLoad> hosts = idleHosts(
                125e6, "10.1.1.1", "10.1.1.2", "10.1.1.3", "10.1.2.1", "10.1.2.2", "10.1.2.3", "10.2.1.1", "10.2.2.1");

        assertEnds(estimate(topology, query, hosts), SIZE / 62.5e6, SIZE / 62.5e6, SIZE / 93.75e6, SIZE / 93.75e6);
    }

    /**
     * Issue 16's rate-coupled pairs (disk -> host -> 10.9.0.3, each pair at one rate) with the senders in pod p1 and
     * the receiver in p2, across a 960 Mbit/s (120e6 bytes/s) pod uplink. The first pair stops at its disk's 50e6; the
     * second takes the rest of the uplink, 70e6, where without a topology it took the rest of 10.9.0.3's link, 75e6.
     */
    @Test
    void rateCoupledPairsAcrossTheCoreShareThePodUplink() throws Exception {
        String topology =
                """
                tier host rate 1Gbps latency 10us buffer 50pkt
                tier rack rate 10Gbps latency 10us buffer 50pkt
                tier pod rate 960Mbps latency 20us buffer 50pkt
                rack r1 pod p1 10.9.0.1 10.9.0.2
                rack r2 pod p2 10.9.0.3
                """;
        String query = Coupled.FLOWS.formatted("10.9.0.3", "10.9.0.3");

        assertEnds(estimate(topology, query, Coupled.hosts()), SIZE / 50e6, SIZE / 50e6, SIZE / 70e6, SIZE / 70e6);
        assertThat(estimate(null, query, Coupled.hosts()).flowEndSeconds().get(2))
                .isCloseTo(SIZE / 75e6, within(1e-6));
    }

    /**
     * The unknown source and hosts the topology does not list sit on the core: their flows into a rack share its
     * downlink; a flow between two unlisted hosts crosses no uplink at all, and neither does a disk flow.
     */
    @Test
    void unlistedHostsAndTheUnknownSourceEnterThroughTheCore() throws Exception {
        String query =
                """
                f1 0.0.0.0 -> 10.0.0.1 size 100M
                f2 10.5.0.1 -> 10.0.0.2 size 100M
                f3 10.5.0.2 -> 10.5.0.3 size 100M
                f4 10.0.0.3 -> disk size 100M
                """;
        Map<String, HostLoad> hosts =
                idleHosts(TEN_GBIT, "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.5.0.1", "10.5.0.2", "10.5.0.3");

        assertEnds(
                estimate(GIGABIT_UPLINKS, query, hosts),
                SIZE / 62.5e6,
                SIZE / 62.5e6,
                SIZE / TEN_GBIT,
                SIZE / TEN_GBIT);
    }

    /**
     * Without a topology, with none (absent), or with one that lists none of the hosts, every estimate is exactly the
     * same: same end times to the last bit, on random loads, bindings and query shapes; so with one that lists all the
     * hosts in one rack, for queries without the unknown source (which is beyond the core, outside every rack).
     */
    @Test
    void aTopologyThatSeparatesNoHostsChangesNoEstimate() throws Exception {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            hosts.add("10.0.0." + i);
        }
        String all = String.join(" ", hosts);
        List<QueryModel> queries = List.of(
                model("x1 = x2 = x3 = (" + all + ")\nf1 x1 -> x2 size 100M\nf2 x2 -> x3 size sz(f1) transfer t(f1)"),
                model("R = (" + all + ")\nf1 disk -> R size 64M rate r(f2)\nf2 R -> 10.0.0.1 size 64M rate r(f1)"),
                model("x1 = x2 = (" + all
                        + ")\nf1 0.0.0.0 -> x1 size 64M rate r(f2)\nf2 x1 -> disk size 64M rate r(f1)\n"
                        + "f3 x2 -> x1 size 30M start e(f1)\nf4 x2 -> 10.0.0.3 end 2"),
                model(Coupled.FLOWS.formatted("10.0.0.3", "10.0.0.4")));
        FlowEstimator today = new FlowEstimator();
        List<FlowEstimator> same = List.of(
                new FlowEstimator(FlowEstimator.DEFAULT_MAX_EVENTS, Optional.empty()),
                new FlowEstimator(
                        FlowEstimator.DEFAULT_MAX_EVENTS,
                        Optional.of(TopologyParser.parse(tiers() + "rack elsewhere pod p1 192.0.2.1-192.0.2.9\n"))));
        FlowEstimator oneRack = new FlowEstimator(
                FlowEstimator.DEFAULT_MAX_EVENTS,
                Optional.of(TopologyParser.parse(tiers() + "rack r1 pod p1 10.0.0.1-10.0.0.8 10.9.0.1-10.9.0.4\n"
                        + "rack r2 pod p2 192.0.2.1\n")));
        Random random = new Random(19);
        for (int round = 0; round < 300; round++) {
            ClusterState state = States.random(random, hosts, 125e6, round % 2 == 0);
            QueryModel query = queries.get(round % queries.size());
            Binding binding = randomBinding(random, query, hosts);
            FlowEstimate expected = today.estimate(query, binding, state);
            for (FlowEstimator estimator : same) {
                assertThat(estimator.estimate(query, binding, state)).isEqualTo(expected);
            }
            if (round % queries.size() != 2) {
                assertThat(oneRack.estimate(query, binding, state)).isEqualTo(expected);
            }
        }
    }

    /** Refined searches with the estimator: with an absent or non-separating topology it answers exactly as before. */
    @Test
    void refinedAnswersAreUnchangedWithoutASeparatingTopology() throws Exception {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            hosts.add("10.0.0." + i);
        }
        QueryModel query = model("x1 = x2 = x3 = (" + String.join(" ", hosts)
                + ")\nf1 x1 -> x2 size 100M\nf2 x2 -> x3 size sz(f1) transfer t(f1)");
        RefinedEvaluator today = new RefinedEvaluator();
        RefinedEvaluator empty = refined(Optional.empty());
        RefinedEvaluator oneRack =
                refined(Optional.of(TopologyParser.parse(tiers() + "rack r1 pod p1 10.0.0.1-10.0.0.8\n")));
        Random random = new Random(1919);
        for (int round = 0; round < 200; round++) {
            ClusterState state = States.random(random, hosts, 125e6, round % 2 == 0);
            Evaluation expected = today.evaluate(query, state);
            assertThat(empty.evaluate(query, state)).isEqualTo(expected);
            assertThat(oneRack.evaluate(query, state)).isEqualTo(expected);
        }
    }

    /** Refined moves a variable away from a host behind a narrow uplink, which it cannot see without the topology. */
    @Test
    void refinedAvoidsAPlacementBehindANarrowUplink() throws Exception {
        QueryModel query = model("A = (10.0.1.1 10.0.0.2)\nf1 10.0.0.1 -> A size 100M");
        // 10.0.0.2 shares the sender's rack but half its NIC is in use; 10.0.1.1 is idle, behind r2's 1 Gbit/s uplink.
        Map<String, HostLoad> hosts = idleHosts(TEN_GBIT, "10.0.0.1", "10.0.1.1");
        hosts.put("10.0.0.2", new HostLoad(TEN_GBIT, TEN_GBIT / 2, TEN_GBIT, 0, TEN_GBIT, 0, TEN_GBIT, 0));
        ClusterState state = new ClusterState(hosts);

        Evaluation without = new RefinedEvaluator().evaluate(query, state);
        Evaluation with =
                refined(Optional.of(TopologyParser.parse(GIGABIT_UPLINKS))).evaluate(query, state);
        assertThat(without.binding().valueOf("A")).isEqualTo("10.0.1.1");
        assertThat(without.completionSeconds()).hasValue(SIZE / TEN_GBIT);
        assertThat(with.binding().valueOf("A")).isEqualTo("10.0.0.2");
        assertThat(with.completionSeconds()).hasValue(SIZE / (TEN_GBIT / 2));
    }

    private static RefinedEvaluator refined(Optional<Topology> topology) {
        return new RefinedEvaluator(
                new HeuristicEvaluator(),
                RefinedEvaluator.DEFAULT_BUDGET,
                Long.MAX_VALUE,
                new FlowEstimator(FlowEstimator.DEFAULT_MAX_EVENTS, topology),
                new Semaphore(Integer.MAX_VALUE));
    }

    private static String tiers() {
        return """
                tier host rate 1Gbps latency 10us buffer 50pkt
                tier rack rate 1Mbps latency 10us buffer 50pkt
                tier pod rate 1Mbps latency 20us buffer 50pkt
                """;
    }

    private static Binding randomBinding(Random random, QueryModel query, List<String> hosts) {
        List<String> shuffled = new ArrayList<>(hosts);
        Collections.shuffle(shuffled, random);
        Map<String, String> values = new HashMap<>();
        List<QueryModel.Variable> variables = query.variables();
        for (int v = 0; v < variables.size(); v++) {
            values.put(variables.get(v).name(), shuffled.get(v));
        }
        return new Binding(values);
    }

    private static void assertEnds(FlowEstimate estimate, double... expected) {
        assertThat(estimate.flowEndSeconds()).hasSize(expected.length);
        for (int f = 0; f < expected.length; f++) {
            assertThat(estimate.flowEndSeconds().get(f)).as("f" + (f + 1)).isCloseTo(expected[f], within(1e-9));
        }
    }

    private static Map<String, HostLoad> idleHosts(double capacity, String... hosts) {
        Map<String, HostLoad> loads = new HashMap<>();
        for (String host : hosts) {
            loads.put(host, idle(capacity));
        }
        return loads;
    }

    /** The estimate over a topology file's text, or with no topology for null. */
    private static FlowEstimate estimate(String topology, String query, Map<String, HostLoad> hosts)
            throws TopologyException {
        FlowEstimator estimator = new FlowEstimator(
                FlowEstimator.DEFAULT_MAX_EVENTS,
                topology == null ? Optional.empty() : Optional.of(TopologyParser.parse(topology)));
        return estimator.estimate(model(query), new Binding(Map.of()), new ClusterState(hosts));
    }
}
