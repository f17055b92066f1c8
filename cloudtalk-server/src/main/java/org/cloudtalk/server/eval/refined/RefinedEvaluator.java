package org.cloudtalk.server.eval.refined;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.state.ClusterState;

/**
 * The heuristic's binding improved by local search with the flow estimator: move one variable to another candidate
 * (swapping with the variable that holds it, to keep values distinct), or two variables at once, whenever that
 * finishes the task sooner, until no move helps, the budget of estimator runs is spent or the deadline passes. The
 * budget is the smaller of {@code budget} and {@code maxBindingFlows / flows}: a query's cost is the bindings it
 * scores times the flows each estimate simulates. A move is estimated only if its {@link CompletionBound} (the busiest
 * resource's known bytes over its available rate) leaves room to beat the current binding.
 */
public final class RefinedEvaluator implements Evaluator {
    public static final int DEFAULT_BUDGET = 2_000;
    /** Lower bounds are cheap: up to this many per estimator run of the budget before the search stops. */
    private static final int BOUNDS_PER_RUN = 50;

    private final HeuristicEvaluator heuristic;
    private final int budget;
    private final long maxBindingFlows;
    private final FlowEstimator estimator;

    public RefinedEvaluator() {
        this(new HeuristicEvaluator(), DEFAULT_BUDGET);
    }

    public RefinedEvaluator(HeuristicEvaluator heuristic, int budget) {
        this(heuristic, budget, Long.MAX_VALUE, new FlowEstimator());
    }

    public RefinedEvaluator(HeuristicEvaluator heuristic, int budget, long maxBindingFlows, FlowEstimator estimator) {
        if (budget < 1 || maxBindingFlows < 1) {
            throw new IllegalArgumentException(
                    "budget and maxBindingFlows must be positive: " + budget + ", " + maxBindingFlows);
        }
        this.heuristic = heuristic;
        this.budget = budget;
        this.maxBindingFlows = maxBindingFlows;
        this.estimator = estimator;
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        long flows = Math.max(1, query.query().flows().size());
        int runs = (int) Math.max(1, Math.min(budget, maxBindingFlows / flows));
        Search search = new Search(
                query,
                state,
                heuristic.evaluate(query, state, deadline).binding().values(),
                runs,
                deadline);
        // Single moves are cheap; pairs of moves escape the local optima where one variable's better value is
        // held by another whose alternatives are all worse on their own.
        while (search.improveOneVariable() || search.improveTwoVariables()) {
            // keep going until neither neighbourhood helps or the budget is spent
        }
        return new Evaluation(new Binding(search.current), OptionalDouble.of(search.cost));
    }

    private final class Search {
        private final QueryModel query;
        private final ClusterState state;
        private final List<QueryModel.Variable> variables;
        private final int budget;
        private final Deadline deadline;
        private Map<String, String> current;
        private double cost;
        private final CompletionBound bound;
        private int runs;
        private int bounded;

        Search(QueryModel query, ClusterState state, Map<String, String> start, int budget, Deadline deadline) {
            this.query = query;
            this.state = state;
            this.variables = query.variables();
            this.budget = budget;
            this.deadline = deadline;
            this.current = new HashMap<>(start);
            this.cost = FlowEvaluator.cost(estimator, query, new Binding(current), state, deadline);
            this.runs = 1;
            this.bound = new CompletionBound(query);
        }

        boolean improveOneVariable() {
            for (QueryModel.Variable variable : variables) {
                for (String candidate : variable.candidates()) {
                    if (tryBinding(move(variables, current, variable, candidate))) {
                        return true;
                    }
                }
            }
            return false;
        }

        boolean improveTwoVariables() {
            for (int i = 0; i < variables.size(); i++) {
                for (int j = i + 1; j < variables.size(); j++) {
                    QueryModel.Variable first = variables.get(i);
                    QueryModel.Variable second = variables.get(j);
                    for (String a : first.candidates()) {
                        Map<String, String> movedFirst = move(variables, current, first, a);
                        for (String b : second.candidates()) {
                            if (tryBinding(move(variables, movedFirst, second, b))) {
                                return true;
                            }
                        }
                    }
                }
            }
            return false;
        }

        /** Adopts {@code candidate} if it is new and finishes sooner; false when it does not or the budget is spent. */
        private boolean tryBinding(Map<String, String> candidate) {
            if (runs >= budget
                    || bounded >= budget * BOUNDS_PER_RUN
                    || candidate.equals(current)
                    || !distinct(candidate)) {
                return false;
            }
            bounded++;
            deadline.check();
            // Relaxed by the acceptance margin so that rounding in the estimator can never make a pruned binding
            // the better one.
            if (bound.of(candidate, state) * (1 - 1e-9) >= cost * (1 - 1e-9)) {
                return false; // it cannot finish sooner than the current binding: no need to estimate it
            }
            double candidateCost = FlowEvaluator.cost(estimator, query, new Binding(candidate), state, deadline);
            runs++;
            if (candidateCost < cost * (1 - 1e-9)) {
                current = candidate;
                cost = candidateCost;
                return true;
            }
            return false;
        }

        private boolean distinct(Map<String, String> binding) {
            java.util.Set<String> taken = new java.util.HashSet<>();
            for (QueryModel.Variable variable : variables) {
                if (!variable.shared() && !taken.add(binding.get(variable.name()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** {@code variable} takes {@code candidate}; a non-shared variable holding it takes the old value instead. */
    private static Map<String, String> move(
            List<QueryModel.Variable> variables,
            Map<String, String> binding,
            QueryModel.Variable variable,
            String candidate) {
        Map<String, String> moved = new HashMap<>(binding);
        String old = moved.put(variable.name(), candidate);
        if (!variable.shared()) {
            for (QueryModel.Variable other : variables) {
                if (other != variable && !other.shared() && candidate.equals(moved.get(other.name()))) {
                    if (other.candidates().contains(old)) {
                        moved.put(other.name(), old);
                    } else {
                        return binding; // the holder cannot take our old value: not a legal move
                    }
                }
            }
        }
        return moved;
    }
}
