package org.cloudtalk.server.eval.exhaustive;

import java.util.HashMap;
import java.util.HashSet;
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
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.state.ClusterState;

/**
 * Scores every binding (distinct values for non-shared variables) with the flow estimator and keeps the one that
 * completes first; the first in enumeration order wins ties. Refuses queries whose search space exceeds the limit.
 */
public final class ExhaustiveEvaluator implements Evaluator {
    public static final long DEFAULT_LIMIT = 100_000;

    private final long limit;
    private final FlowEstimator estimator;

    public ExhaustiveEvaluator() {
        this(DEFAULT_LIMIT);
    }

    public ExhaustiveEvaluator(long limit) {
        this(limit, new FlowEstimator());
    }

    public ExhaustiveEvaluator(long limit, FlowEstimator estimator) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        this.limit = limit;
        this.estimator = estimator;
    }

    /** The number of assignments of candidates to variables, ignoring distinctness: an upper bound of the search. */
    public static double searchSpace(QueryModel query) {
        double size = 1;
        for (QueryModel.Variable variable : query.variables()) {
            size *= variable.candidates().size();
        }
        return size;
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        double space = searchSpace(query);
        if (space > limit) {
            throw new EvaluationException(String.format(
                    "exhaustive search over %.0f bindings exceeds the limit of %d; use the heuristic or refined evaluator",
                    space, limit));
        }
        Search search = new Search(query, state, deadline);
        search.explore(0);
        if (search.best == null) {
            throw new EvaluationException("no binding gives the variables distinct values: they need more candidates");
        }
        return new Evaluation(new Binding(search.best), OptionalDouble.of(search.bestCost));
    }

    private final class Search {
        private final QueryModel query;
        private final ClusterState state;
        private final Deadline deadline;
        private final List<QueryModel.Variable> variables;
        private final Map<String, String> current = new HashMap<>();
        private final Set<String> used = new HashSet<>();
        private Map<String, String> best;
        private double bestCost = Double.POSITIVE_INFINITY;

        Search(QueryModel query, ClusterState state, Deadline deadline) {
            this.query = query;
            this.state = state;
            this.deadline = deadline;
            this.variables = query.variables();
        }

        void explore(int index) {
            if (index == variables.size()) {
                double cost = FlowEvaluator.cost(estimator, query, new Binding(current), state, deadline);
                if (best == null || cost < bestCost) {
                    best = Map.copyOf(current);
                    bestCost = cost;
                }
                return;
            }
            QueryModel.Variable variable = variables.get(index);
            for (String candidate : variable.candidates()) {
                if (!variable.shared() && used.contains(candidate)) {
                    continue;
                }
                current.put(variable.name(), candidate);
                if (!variable.shared()) {
                    used.add(candidate);
                }
                explore(index + 1);
                if (!variable.shared()) {
                    used.remove(candidate);
                }
            }
            current.remove(variable.name());
        }
    }
}
