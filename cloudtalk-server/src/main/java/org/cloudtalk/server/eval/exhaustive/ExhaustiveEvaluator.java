package org.cloudtalk.server.eval.exhaustive;

import java.util.OptionalDouble;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.BindingEnumerator;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.state.ClusterState;

/**
 * Scores every binding (distinct values for non-shared variables) with the flow estimator and keeps the one that
 * completes first; the first in enumeration order wins ties. Bindings that only swap interchangeable variables are
 * scored once ({@link BindingEnumerator}). Refuses queries whose search space exceeds the limit.
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

    /**
     * How many bindings the search scores at most: bindings without the symmetric duplicates interchangeable
     * variables create ({@link BindingEnumerator#bound}), ignoring distinctness between other variables.
     */
    public static double searchSpace(QueryModel query) {
        return new BindingEnumerator(query).bound();
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        BindingEnumerator bindings = new BindingEnumerator(query);
        double space = bindings.bound();
        if (space > limit) {
            throw new EvaluationException(String.format(
                    "exhaustive search over %.0f bindings exceeds the limit of %d; use the heuristic or refined evaluator",
                    space, limit));
        }
        // Bindings that differ by a swap of interchangeable variables have equal completion times (see
        // BindingEnumerator), and the one listed is the first of them in the plain order: the optimum and the
        // tie-breaking are those of a search over every ordered binding.
        Binding[] best = {null};
        double[] bestCost = {Double.POSITIVE_INFINITY};
        boolean[] endless = {false};
        bindings.forEach(binding -> {
            double cost = estimator.estimate(query, binding, state, deadline).completionSeconds();
            if (Double.isNaN(cost)) {
                // Every flow is endless (or there is none), whatever the binding: nothing to compare bindings by, so
                // the first binding is the answer, without a completion time, as refined and the heuristic answer.
                best[0] = binding;
                endless[0] = true;
                return false;
            }
            if (best[0] == null || cost < bestCost[0]) {
                best[0] = binding;
                bestCost[0] = cost;
            }
            return true;
        });
        if (best[0] == null) {
            throw new EvaluationException("no binding gives the variables distinct values and keeps every flow"
                    + " between a host and something else: they need more candidates ("
                    + QueryModel.DISK_RULE
                    + ")");
        }
        return new Evaluation(best[0], endless[0] ? OptionalDouble.empty() : OptionalDouble.of(bestCost[0]));
    }
}
