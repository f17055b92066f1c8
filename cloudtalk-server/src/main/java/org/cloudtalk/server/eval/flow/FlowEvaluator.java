package org.cloudtalk.server.eval.flow;

import static java.util.Objects.requireNonNull;

import java.util.OptionalDouble;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;

/**
 * The {@code flow} evaluator: binds with another evaluator (the heuristic by default) and reports the flow
 * estimator's completion time for that binding. Also the cost every search uses to compare bindings.
 */
public final class FlowEvaluator implements Evaluator {
    private final Evaluator binder;
    private final FlowEstimator estimator;

    public FlowEvaluator(Evaluator binder) {
        this(binder, new FlowEstimator());
    }

    public FlowEvaluator(Evaluator binder, FlowEstimator estimator) {
        this.binder = requireNonNull(binder, "binder is null");
        this.estimator = requireNonNull(estimator, "estimator is null");
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        Binding binding = binder.evaluate(query, state, deadline).binding();
        double completion = estimator.estimate(query, binding, state, deadline).completionSeconds();
        return new Evaluation(
                binding, Double.isNaN(completion) ? OptionalDouble.empty() : OptionalDouble.of(completion));
    }

    /** Completion time in seconds of the query under a binding: lower is better, +∞ if it never completes. */
    public static double cost(FlowEstimator estimator, QueryModel query, Binding binding, ClusterState state) {
        return cost(estimator, query, binding, state, Deadline.none());
    }

    public static double cost(
            FlowEstimator estimator, QueryModel query, Binding binding, ClusterState state, Deadline deadline) {
        return cost(estimator.estimate(query, binding, state, deadline));
    }

    /** An estimate's completion time as a cost: see {@link #cost(FlowEstimator, QueryModel, Binding, ClusterState)}. */
    public static double cost(FlowEstimate estimate) {
        double completion = estimate.completionSeconds();
        if (Double.isNaN(completion)) {
            throw new EvaluationException(
                    "comparing bindings needs a finite flow (one with size or end); every flow of this query is endless");
        }
        return completion;
    }
}
