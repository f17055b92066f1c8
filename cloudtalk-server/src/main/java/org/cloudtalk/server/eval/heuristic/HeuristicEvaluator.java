package org.cloudtalk.server.eval.heuristic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * The paper's heuristic (Listing 1): bind first the variables that talk to exactly one endpoint which is one of their
 * own candidates (binding them to it makes that flow local), then the rest, most constrained first; each variable takes
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
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        return evaluate(query, state, deadline, null);
    }

    /**
     * Each variable's score for each candidate it considered, in binding order: what {@code explain=true} shows.
     * {@link Double#MAX_VALUE} means no resource constrains that candidate (e.g. the flow would be local).
     */
    public Map<String, Map<String, Double>> explain(QueryModel query, ClusterState state, Deadline deadline) {
        Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
        evaluate(query, state, deadline, scores);
        return scores;
    }

    private Evaluation evaluate(
            QueryModel query, ClusterState state, Deadline deadline, Map<String, Map<String, Double>> scores) {
        Map<String, String> bound = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        // Variables declared together share one candidate list: prepare it once, not once per variable.
        Map<List<String>, Pool> pools = new IdentityHashMap<>();
        List<QueryModel.Variable> order = new ArrayList<>();
        List<QueryModel.Variable> rest = new ArrayList<>();
        for (QueryModel.Variable variable : query.variables()) {
            (bindsLocally(query, variable) ? order : rest).add(variable);
        }
        // Listing 1 leaves the order of the remaining variables open ("for v in vars" over a set). The most
        // constrained go first — those whose score involves more kinds of resource — so that a variable that only
        // sends cannot take the one host a variable that must both receive and send needed. Ties keep declaration
        // order.
        Map<String, Integer> kinds = new HashMap<>();
        rest.forEach(variable -> kinds.put(variable.name(), resourceKinds(query, variable)));
        rest.sort(Comparator.comparingInt((QueryModel.Variable variable) -> -kinds.get(variable.name())));
        order.addAll(rest);
        try {
            for (QueryModel.Variable variable : order) {
                deadline.check();
                assign(query, variable, state, pools, bound, used, scores);
            }
        } catch (EvaluationException greedyFailed) {
            // Greedy choice with its repairs finds distinct values whenever they exist (the repairs are augmenting
            // paths), but the disk rule can corner it: a variable that took disk leaves its peers none, and only that
            // earlier variable's other value avoids it. Then a search finds a binding where one exists.
            if (order.stream().noneMatch(variable -> variable.candidates().contains(QueryModel.DISK))) {
                throw greedyFailed;
            }
            BindingSearch search = search(query, order, state, pools, deadline, scores);
            return new Evaluation(
                    new Binding(search.find().orElseThrow(() -> unbindable(search, greedyFailed))),
                    OptionalDouble.empty());
        }
        return new Evaluation(new Binding(bound), OptionalDouble.empty());
    }

    /**
     * Why a query has no binding, once the search has shown it: greedy choice's reason, unless distinct values alone
     * would exist, when only the disk rule stands in the way (greedy's reason may then blame distinctness).
     */
    private static EvaluationException unbindable(BindingSearch search, EvaluationException greedyFailed) {
        if (!search.distinctValuesExist()) {
            return greedyFailed;
        }
        return new EvaluationException("no binding keeps the disk rule: every way of giving the variables distinct"
                + " values turns a flow into disk -> disk or 0.0.0.0 -> disk, which the language refuses");
    }

    /**
     * A search over the variables in the heuristic's order, each trying its candidates from the best score down
     * ({@link BindingSearch}). Reached only when greedy choice failed; {@code scores}, when asked for, then become every
     * variable's score of every candidate (greedy's are partial: it stopped where it failed).
     */
    private BindingSearch search(
            QueryModel query,
            List<QueryModel.Variable> order,
            ClusterState state,
            Map<List<String>, Pool> pools,
            Deadline deadline,
            Map<String, Map<String, Double>> scores) {
        if (scores != null) {
            scores.clear();
        }
        List<List<String>> preferences = new ArrayList<>(order.size());
        for (QueryModel.Variable variable : order) {
            Pool pool = pools.computeIfAbsent(variable.candidates(), candidates -> new Pool(candidates, state));
            Roles roles = new Roles(query, variable, pool);
            // As greedy choice lists no disk where it may not go: a variable fed by disk, say, never takes it.
            boolean diskPossible = query.admits(variable.name(), QueryModel.DISK, unbound -> null);
            double inverseWeight = 1 / weight;
            Integer[] positions = new Integer[pool.candidates.size()];
            double[] score = new double[positions.length];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = i;
                score[i] = pool.disk[i] ? MAX : score(pool.loads[i], i, roles, inverseWeight);
                if (scores != null && (diskPossible || !pool.disk[i])) {
                    scores.computeIfAbsent(variable.name(), unused -> new LinkedHashMap<>())
                            .put(pool.candidates.get(i), score[i]);
                }
            }
            // Best first; among equal scores the later candidate, as the greedy pass prefers it.
            Arrays.sort(
                    positions,
                    Comparator.comparingDouble((Integer i) -> -score[i]).thenComparing(i -> -i));
            preferences.add(Arrays.stream(positions).map(pool.candidates::get).toList());
        }
        return new BindingSearch(query, order, preferences, deadline);
    }

    /** How many of network receive, network transmit, disk read and disk write the variable's score depends on. */
    private static int resourceKinds(QueryModel query, QueryModel.Variable variable) {
        Set<String> incoming = query.incoming(variable.name());
        Set<String> outgoing = query.outgoing(variable.name());
        int kinds = 0;
        kinds += network(incoming).isEmpty() ? 0 : 1;
        kinds += network(outgoing).isEmpty() ? 0 : 1;
        kinds += incoming.contains(QueryModel.DISK) ? 1 : 0;
        kinds += outgoing.contains(QueryModel.DISK) ? 1 : 0;
        return kinds;
    }

    /** Lines 8-9: the variable's only network peer on one side is one of its own candidates. */
    private static boolean bindsLocally(QueryModel query, QueryModel.Variable variable) {
        return singlePeerIsCandidate(query, network(query.incoming(variable.name())), variable)
                || singlePeerIsCandidate(query, network(query.outgoing(variable.name())), variable);
    }

    private static boolean singlePeerIsCandidate(QueryModel query, Set<String> peers, QueryModel.Variable variable) {
        if (peers.size() != 1) {
            return false;
        }
        String peer = peers.iterator().next();
        // A variable is never a candidate value: skip the linear search through a possibly long candidate list.
        return !query.isVariable(peer) && variable.candidates().contains(peer);
    }

    private static Set<String> network(Set<String> endpoints) {
        Set<String> network = new HashSet<>(endpoints);
        network.remove(QueryModel.DISK);
        return network;
    }

    /**
     * Listing 1's score of one resource: what is left of it, {@code capacity - use / W}. Once pseudo-reservations
     * oversubscribe it, that is below zero, where bytes/s would rank a slow host's small deficit above a fast host's
     * large one and every concurrent query would pile onto the slowest host. An oversubscribed resource scores
     * {@code -1 / share} instead, where share is what a new flow would get there ({@code capacity / (n + 1)}, n the
     * use in capacities): below every resource with room left, and among oversubscribed ones by that share. A
     * resource without capacity (a status file may say 0) scores below them all.
     */
    static double left(double capacity, double weightedUse) {
        if (!(capacity > 0)) {
            return -MAX; // nothing can flow there: below every resource that has some capacity, however loaded
        }
        double left = capacity - weightedUse;
        if (left >= 0) {
            return left;
        }
        double share = capacity * capacity / (weightedUse + capacity);
        return share > 0 ? -1 / share : -MAX;
    }

    /** A candidate list with its loads and positions, so the per-candidate loop needs no lookups. */
    private static final class Pool {
        final List<String> candidates;
        final HostLoad[] loads;
        final boolean[] disk;
        final Map<String, Integer> positions = new HashMap<>();

        Pool(List<String> candidates, ClusterState state) {
            this.candidates = candidates;
            this.loads = new HostLoad[candidates.size()];
            this.disk = new boolean[candidates.size()];
            for (int i = 0; i < loads.length; i++) {
                String candidate = candidates.get(i);
                loads[i] = state.load(candidate);
                disk[i] = candidate.equals(QueryModel.DISK);
                positions.putIfAbsent(candidate, i);
            }
        }

        /** Which positions hold a value already taken by another variable. */
        boolean[] taken(Set<String> used) {
            boolean[] taken = new boolean[candidates.size()];
            for (String value : used) {
                Integer position = positions.get(value);
                if (position != null) {
                    taken[position] = true;
                }
            }
            return taken;
        }

        /** The position of a peer among the candidates, or -1 (variables and unknown peers are never candidates). */
        int positionOf(String peer) {
            Integer position = peer == null ? null : positions.get(peer);
            return position == null ? -1 : position;
        }
    }

    /** What a variable does, which decides the resources its score looks at. */
    private record Roles(
            int onlySender, int onlyReceiver, boolean receives, boolean sends, boolean readsDisk, boolean writesDisk) {
        Roles(QueryModel query, QueryModel.Variable variable, Pool pool) {
            this(query.incoming(variable.name()), query.outgoing(variable.name()), pool);
        }

        private Roles(Set<String> incoming, Set<String> outgoing, Pool pool) {
            // Line 27: a candidate that is the variable's only peer on one side makes that flow local.
            this(
                    incoming.size() == 1 ? pool.positionOf(incoming.iterator().next()) : -1,
                    outgoing.size() == 1 ? pool.positionOf(outgoing.iterator().next()) : -1,
                    !network(incoming).isEmpty(),
                    !network(outgoing).isEmpty(),
                    incoming.contains(QueryModel.DISK),
                    outgoing.contains(QueryModel.DISK));
        }
    }

    /** Lines 27-35: the candidate at {@code position}'s least available resource among those the variable uses. */
    private static double score(HostLoad load, int position, Roles roles, double inverseWeight) {
        boolean local = position == roles.onlySender() || position == roles.onlyReceiver();
        double netRx = local || !roles.receives() ? MAX : left(load.rxCapacity(), load.rxUse() * inverseWeight);
        double netTx = local || !roles.sends() ? MAX : left(load.txCapacity(), load.txUse() * inverseWeight);
        // Line 33: disk read matters when the variable's disk feeds it (disk -> v); write when v -> disk.
        double diskRead = roles.readsDisk() ? left(load.diskReadCapacity(), load.diskReadUse() * inverseWeight) : MAX;
        double diskWrite =
                roles.writesDisk() ? left(load.diskWriteCapacity(), load.diskWriteUse() * inverseWeight) : MAX;
        return Math.min(Math.min(netRx, netTx), Math.min(diskRead, diskWrite));
    }

    private void assign(
            QueryModel query,
            QueryModel.Variable variable,
            ClusterState state,
            Map<List<String>, Pool> pools,
            Map<String, String> bound,
            Set<String> used,
            Map<String, Map<String, Double>> scores) {
        Pool pool = pools.computeIfAbsent(variable.candidates(), candidates -> new Pool(candidates, state));
        Roles roles = new Roles(query, variable, pool);
        boolean[] taken = variable.shared() || used.isEmpty() ? null : pool.taken(used);
        boolean diskAdmitted = query.admits(variable.name(), QueryModel.DISK, bound::get);
        double inverseWeight = 1 / weight;
        HostLoad[] loads = pool.loads;
        int best = -1;
        double bestScore = 0;
        for (int i = 0; i < loads.length; i++) {
            if (taken != null && taken[i]) {
                continue;
            }
            double score;
            if (pool.disk[i]) {
                if (!diskAdmitted) {
                    continue;
                }
                score = MAX;
            } else {
                score = score(loads[i], i, roles, inverseWeight);
            }
            if (scores != null) {
                scores.computeIfAbsent(variable.name(), unused -> new LinkedHashMap<>())
                        .put(pool.candidates.get(i), score);
            }
            if (best < 0 || score >= bestScore) {
                best = i;
                bestScore = score;
            }
        }
        if (best < 0
                && !variable.shared()
                && makeRoom(query, variable, bound, used, holders(query, bound), new HashSet<>())) {
            return;
        }
        if (best < 0) {
            String why = variable.shared()
                    ? "disk may not be its value: " + QueryModel.DISK_RULE
                    : "the variables sharing its pool need more distinct values than it lists (declare them shared to"
                            + " allow reuse)"
                            + (diskAdmitted ? "" : ", and disk may not be its value: " + QueryModel.DISK_RULE);
            throw new EvaluationException("variable " + variable.name() + " has no candidate left: " + why);
        }
        String chosen = pool.candidates.get(best);
        bound.put(variable.name(), chosen);
        if (!variable.shared()) {
            used.add(chosen);
        }
    }

    /**
     * When every candidate of {@code variable} is taken, frees one by moving the variables that hold it to other
     * values of theirs, as an augmenting path in bipartite matching does, and binds {@code variable} to it. Greedy
     * choice alone can leave a satisfiable query unanswered: {@code a = (h1 h2)} taking h1 before {@code b = (h1)}.
     * The variables moved give up their best-scored value for the sake of an answer at all. Each value is tried once
     * per repair, so a repair costs at most the candidates of the variables it visits.
     *
     * @param holders the variable, not shared, bound to each value so far
     * @param visited values already tried on this path
     * @return whether {@code variable} is now bound
     */
    private static boolean makeRoom(
            QueryModel query,
            QueryModel.Variable variable,
            Map<String, String> bound,
            Set<String> used,
            Map<String, String> holders,
            Set<String> visited) {
        for (String candidate : variable.candidates()) {
            if (visited.contains(candidate)
                    || (candidate.equals(QueryModel.DISK) && !query.admits(variable.name(), candidate, bound::get))) {
                continue;
            }
            visited.add(candidate);
            String holder = holders.get(candidate);
            if (holder == null
                    || moveElsewhere(query, query.variable(holder), candidate, bound, used, holders, visited)) {
                bound.put(variable.name(), candidate);
                used.add(candidate);
                holders.put(candidate, variable.name());
                return true;
            }
        }
        return false;
    }

    /** Rebinds {@code holder} from {@code value} to a free value of its own (freeing another one for it if need be). */
    private static boolean moveElsewhere(
            QueryModel query,
            QueryModel.Variable holder,
            String value,
            Map<String, String> bound,
            Set<String> used,
            Map<String, String> holders,
            Set<String> visited) {
        bound.remove(holder.name());
        used.remove(value);
        holders.remove(value);
        if (makeRoom(query, holder, bound, used, holders, visited)) {
            return true;
        }
        bound.put(holder.name(), value);
        used.add(value);
        holders.put(value, holder.name());
        return false;
    }

    /** Each value bound to a variable that is not shared, and that variable. */
    private static Map<String, String> holders(QueryModel query, Map<String, String> bound) {
        Map<String, String> holders = new HashMap<>();
        bound.forEach((name, value) -> {
            if (!query.variable(name).shared()) {
                holders.put(value, name);
            }
        });
        return holders;
    }
}
