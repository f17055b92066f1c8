package org.cloudtalk.server.eval.heuristic;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * The paper's heuristic (Listing 1): bind first the variables that talk to exactly one endpoint which is one of their
 * own candidates (binding them to it makes that flow local), then the rest in declaration order; each variable takes
 * the candidate whose least available resource — network receive, network transmit, disk read, disk write, each only
 * if the variable uses it — is largest, where availability is {@code capacity - use / W}.
 *
 * <p>Where the printed pseudocode and its text disagree we follow the evident intent, as the text describes it:
 * <ul>
 *   <li>line 22 updates {@code bestScore} outside the {@code if}; it belongs inside, or the last candidate's score
 *       would stand as the best;
 *   <li>line 24 inserts the variable into {@code used_values}; the chosen value is what must not be reused;
 *   <li>lines 6-7 and 29 mix up directions ({@code to[v]} holds the endpoints that send to {@code v}, yet netRx tests
 *       the set of endpoints {@code v} sends to); here receive fitness matters when something sends to the variable
 *       and transmit fitness when the variable sends, as the text says.
 * </ul>
 * Ties go to the later candidate ({@code >=}, line 20). Variables declared {@code shared} neither take values from
 * nor add them to {@code used_values}.
 */
public final class HeuristicEvaluator implements Evaluator {
    public static final double DEFAULT_WEIGHT = 2;
    private static final double MAX = Double.MAX_VALUE;

    private final double weight;

    public HeuristicEvaluator() {
        this(DEFAULT_WEIGHT);
    }

    public HeuristicEvaluator(double weight) {
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight must be positive: " + weight);
        }
        this.weight = weight;
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state) {
        return evaluate(query, state, null);
    }

    /**
     * Each variable's score for each candidate it considered, in binding order: what {@code explain=true} shows.
     * {@link Double#MAX_VALUE} means no resource constrains that candidate (e.g. the flow would be local).
     */
    public Map<String, Map<String, Double>> explain(QueryModel query, ClusterState state) {
        Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
        evaluate(query, state, scores);
        return scores;
    }

    private Evaluation evaluate(QueryModel query, ClusterState state, Map<String, Map<String, Double>> scores) {
        Map<String, String> bound = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        List<QueryModel.Variable> rest = new ArrayList<>();
        for (QueryModel.Variable variable : query.variables()) {
            if (bindsLocally(query, variable)) {
                assign(query, variable, state, bound, used, scores);
            } else {
                rest.add(variable);
            }
        }
        for (QueryModel.Variable variable : rest) {
            assign(query, variable, state, bound, used, scores);
        }
        return new Evaluation(new Binding(bound), OptionalDouble.empty());
    }

    /** Lines 8-9: the variable's only network peer on one side is one of its own candidates. */
    private static boolean bindsLocally(QueryModel query, QueryModel.Variable variable) {
        return singlePeerIsCandidate(network(query.incoming(variable.name())), variable)
                || singlePeerIsCandidate(network(query.outgoing(variable.name())), variable);
    }

    private static boolean singlePeerIsCandidate(Set<String> peers, QueryModel.Variable variable) {
        return peers.size() == 1
                && variable.candidates().contains(peers.iterator().next());
    }

    private static Set<String> network(Set<String> endpoints) {
        Set<String> network = new HashSet<>(endpoints);
        network.remove(QueryModel.DISK);
        return network;
    }

    private void assign(
            QueryModel query,
            QueryModel.Variable variable,
            ClusterState state,
            Map<String, String> bound,
            Set<String> used,
            Map<String, Map<String, Double>> scores) {
        Set<String> incoming = query.incoming(variable.name());
        Set<String> outgoing = query.outgoing(variable.name());
        Set<String> receivesFrom = network(incoming);
        Set<String> sendsTo = network(outgoing);
        String best = null;
        double bestScore = 0;
        for (String candidate : variable.candidates()) {
            if (!variable.shared() && used.contains(candidate)) {
                continue;
            }
            double score = score(candidate, state, incoming, outgoing, receivesFrom, sendsTo);
            if (scores != null) {
                scores.computeIfAbsent(variable.name(), unused -> new LinkedHashMap<>())
                        .put(candidate, score);
            }
            if (best == null || score >= bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        if (best == null) {
            throw new EvaluationException("variable " + variable.name() + " has no candidate left: the variables "
                    + "sharing its pool need more distinct values than it lists (declare them shared to allow reuse)");
        }
        bound.put(variable.name(), best);
        if (!variable.shared()) {
            used.add(best);
        }
    }

    private double score(
            String candidate,
            ClusterState state,
            Set<String> incoming,
            Set<String> outgoing,
            Set<String> receivesFrom,
            Set<String> sendsTo) {
        if (candidate.equals(QueryModel.DISK)) {
            return MAX;
        }
        boolean local = incoming.equals(Set.of(candidate)) || outgoing.equals(Set.of(candidate));
        HostLoad load = state.load(candidate);
        double netRx = local || receivesFrom.isEmpty() ? MAX : load.rxCapacity() - load.rxUse() / weight;
        double netTx = local || sendsTo.isEmpty() ? MAX : load.txCapacity() - load.txUse() / weight;
        // Line 33: disk read matters when the variable's disk feeds it (disk -> v); write when v -> disk.
        double diskRead =
                incoming.contains(QueryModel.DISK) ? load.diskReadCapacity() - load.diskReadUse() / weight : MAX;
        double diskWrite =
                outgoing.contains(QueryModel.DISK) ? load.diskWriteCapacity() - load.diskWriteUse() / weight : MAX;
        return Math.min(Math.min(netRx, netTx), Math.min(diskRead, diskWrite));
    }
}
