package org.cloudtalk.server.eval.refined;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.flow.HostResources;
import org.cloudtalk.server.state.ClusterState;

/**
 * A lower bound on when a binding's task can complete, far cheaper than the flow estimator: every byte of the flows
 * whose size is known up front must cross each resource the flow uses, at no more than what that resource has
 * available, so the task takes at least the busiest resource's bytes over its available rate. The estimator's answer
 * is never below it (rates, transfer bounds and starts only slow flows down), so a binding whose bound is no better
 * than the best found need not be estimated.
 */
final class CompletionBound {
    /** A flow with a size known up front: its endpoints' keys (variables or literal endpoints) and its bytes. */
    private record SizedFlow(String source, String destination, double bytes) {}

    private final QueryModel query;
    private final List<SizedFlow> flows = new ArrayList<>();

    CompletionBound(QueryModel query) {
        this.query = query;
        List<Flow> all = query.query().flows();
        Map<String, Flow> byName = new HashMap<>();
        all.forEach(flow -> flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), flow)));
        for (Flow flow : all) {
            double bytes = constantSize(flow, all, byName, 0);
            if (bytes > 0) {
                flows.add(new SizedFlow(QueryModel.key(flow.source()), QueryModel.key(flow.destination()), bytes));
            }
        }
    }

    /** Seconds; 0 when no flow's size is known, +∞ when a flow must cross a resource with nothing available. */
    double of(Map<String, String> binding, ClusterState state) {
        Map<String, Double> bytes = new HashMap<>();
        for (SizedFlow flow : flows) {
            for (String resource :
                    HostResources.used(resolve(flow.source(), binding), resolve(flow.destination(), binding))) {
                bytes.merge(resource, flow.bytes(), Double::sum);
            }
        }
        double bound = 0;
        for (Map.Entry<String, Double> entry : bytes.entrySet()) {
            double available = HostResources.available(state, entry.getKey());
            bound = Math.max(bound, available > 0 ? entry.getValue() / available : Double.POSITIVE_INFINITY);
        }
        return bound;
    }

    private String resolve(String key, Map<String, String> binding) {
        return query.isVariable(key) ? binding.get(key) : key;
    }

    /** A flow's size if it is a constant expression (numbers and other flows' constant sizes); NaN otherwise. */
    private static double constantSize(Flow flow, List<Flow> all, Map<String, Flow> byName, int depth) {
        Optional<Expression> size = flow.attribute(Attribute.SIZE);
        // Depth guards against size cycles, which validation rejects anyway.
        return size.isEmpty() || depth > all.size() ? Double.NaN : constant(size.get(), all, byName, depth);
    }

    private static double constant(Expression expression, List<Flow> all, Map<String, Flow> byName, int depth) {
        if (expression instanceof Expression.Number number) {
            return number.value();
        }
        if (expression instanceof Expression.Reference reference) {
            if (reference.attribute() != Attribute.SIZE) {
                return Double.NaN;
            }
            Flow target = reference.flow() instanceof FlowSelector.ByPosition byPosition
                    ? all.get(byPosition.position() - 1)
                    : byName.get(((FlowSelector.ByName) reference.flow()).name());
            return constantSize(target, all, byName, depth + 1);
        }
        Expression.Binary binary = (Expression.Binary) expression;
        return binary.operator()
                .apply(constant(binary.left(), all, byName, depth), constant(binary.right(), all, byName, depth));
    }
}
