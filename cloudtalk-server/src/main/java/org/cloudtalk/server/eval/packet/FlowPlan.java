package org.cloudtalk.server.eval.packet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Operator;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.QueryModel;

/**
 * A query's flows as the simulator takes them: a size in bytes, and a start that is a time or "this long after those
 * flows finish". Resolved once per query; only the endpoints change between bindings. What a packet simulation
 * cannot take (rate caps, end times, disks, unknown sources) is refused with the flow's name.
 *
 * <p>A {@code transfer t(g)} bound (the flow may not send more than g has carried) becomes store-and-forward: the
 * flow starts when g finishes. That is how an aggregator forwards the results it gathered (§5.4). A bound without
 * {@code t()} ({@code transfer sz(g)}, {@code transfer 1MB}) only caps the flow's size.
 */
final class FlowPlan {
    /** The largest flow simulated: beyond any that finishes within the horizon, and within the helper's numbers. */
    private static final double MAX_BYTES = 1e15;

    /** One flow, in an order where every flow comes after those it waits for. */
    record Planned(String id, Flow flow, long bytes, long startNanos, List<String> after) {}

    private record Start(long nanos, Set<Flow> after) {}

    private final QueryModel model;
    private final Map<Flow, Double> sizes = new HashMap<>();
    private final Map<Flow, Start> starts = new HashMap<>();

    private FlowPlan(QueryModel model) {
        this.model = model;
    }

    static List<Planned> of(QueryModel model) {
        List<Flow> flows = model.query().flows();
        if (flows.isEmpty()) {
            throw new EvaluationException("the packet evaluator needs at least one flow to simulate");
        }
        FlowPlan plan = new FlowPlan(model);
        Map<Flow, Start> resolved = new HashMap<>();
        for (Flow flow : flows) {
            plan.check(flow);
            Start start = plan.start(flow, new HashSet<>());
            Set<Flow> after = new LinkedHashSet<>(start.after());
            flow.attribute(Attribute.TRANSFER).ifPresent(bound -> after.addAll(plan.followed(bound)));
            after.remove(flow);
            resolved.put(flow, new Start(start.nanos(), after));
        }
        List<Planned> ordered = new ArrayList<>();
        Set<Flow> placed = new HashSet<>();
        while (ordered.size() < flows.size()) {
            int before = ordered.size();
            for (Flow flow : flows) {
                Start start = resolved.get(flow);
                if (!placed.contains(flow) && placed.containsAll(start.after())) {
                    placed.add(flow);
                    ordered.add(new Planned(
                            id(flow),
                            flow,
                            (long) Math.ceil(plan.size(flow, new HashSet<>())),
                            start.nanos(),
                            start.after().stream().map(FlowPlan::id).toList()));
                }
            }
            if (ordered.size() == before) {
                throw new EvaluationException("the packet evaluator cannot order flows that wait for each other: "
                        + String.join(
                                ", ",
                                flows.stream()
                                        .filter(f -> !placed.contains(f))
                                        .map(Flow::displayName)
                                        .toList()));
            }
        }
        return ordered;
    }

    /** The helper's name for a flow: its position, whatever its name in the query. */
    static String id(Flow flow) {
        return "f" + flow.position();
    }

    private void check(Flow flow) {
        for (Attribute unsupported : new Attribute[] {Attribute.RATE, Attribute.END}) {
            if (flow.has(unsupported)) {
                throw refuse(flow, "has '" + unsupported.keyword() + "', which a packet simulation does not model");
            }
        }
        for (Endpoint endpoint : new Endpoint[] {flow.source(), flow.destination()}) {
            QueryModel.Variable variable = model.variable(QueryModel.key(endpoint));
            if (endpoint instanceof Endpoint.UnknownSource
                    || endpoint instanceof Endpoint.Disk
                    || (variable != null && variable.candidates().contains(QueryModel.DISK))) {
                throw refuse(
                        flow,
                        "must run between two hosts (the packet evaluator simulates the network only, not disks or the unknown source)");
            }
        }
    }

    private double size(Flow flow, Set<Flow> visiting) {
        Double known = sizes.get(flow);
        if (known != null) {
            return known;
        }
        if (!visiting.add(flow)) {
            throw refuse(flow, "has a size that depends on itself");
        }
        Expression expression = flow.attribute(Attribute.SIZE)
                .or(() -> flow.attribute(Attribute.TRANSFER))
                .orElseThrow(
                        () -> refuse(flow, "has no size (the packet evaluator simulates transfers of known size)"));
        double size = bytes(flow, expression, visiting);
        if (!(size >= 1)) {
            throw refuse(flow, "has a size below one byte");
        }
        if (size > MAX_BYTES) {
            throw refuse(flow, "has a size over 1PB, more than the packet evaluator simulates");
        }
        if (flow.has(Attribute.SIZE) && flow.has(Attribute.TRANSFER)) {
            // transfer caps what the flow has ever sent: below its size, the flow never ends.
            double cap = bytes(flow, flow.attribute(Attribute.TRANSFER).orElseThrow(), visiting);
            if (cap < size) {
                throw refuse(
                        flow,
                        String.format(
                                Locale.ROOT,
                                "never finishes: its transfer cap (%.0f bytes) is below its size (%.0f bytes)",
                                cap,
                                size));
            }
        }
        sizes.put(flow, size);
        return size;
    }

    private double bytes(Flow flow, Expression expression, Set<Flow> visiting) {
        if (expression instanceof Expression.Number number) {
            return number.value();
        }
        if (expression instanceof Expression.Reference reference) {
            if (reference.attribute() != Attribute.SIZE && reference.attribute() != Attribute.TRANSFER) {
                throw refuse(
                        flow,
                        "has a size that refers to '" + reference.attribute().referenceFunction()
                                + "'; only sz() and t() can size a simulated flow");
            }
            return size(target(reference), visiting);
        }
        Expression.Binary binary = (Expression.Binary) expression;
        double left = bytes(flow, binary.left(), visiting);
        double right = bytes(flow, binary.right(), visiting);
        return arithmetic(binary.operator(), left, right);
    }

    private Start start(Flow flow, Set<Flow> visiting) {
        Start known = starts.get(flow);
        if (known != null) {
            return known;
        }
        if (!visiting.add(flow)) {
            throw refuse(flow, "has a start that depends on itself");
        }
        Start start = flow.attribute(Attribute.START)
                .map(expression -> start(flow, expression, visiting))
                .orElse(new Start(0, Set.of()));
        starts.put(flow, start);
        return start;
    }

    private Start start(Flow flow, Expression expression, Set<Flow> visiting) {
        if (expression instanceof Expression.Number number) {
            return new Start(nanos(flow, number.value(), 0), Set.of());
        }
        if (expression instanceof Expression.Reference reference) {
            if (reference.attribute() == Attribute.END) {
                return new Start(0, Set.of(target(reference)));
            }
            if (reference.attribute() == Attribute.START) {
                return start(target(reference), visiting);
            }
        }
        if (expression instanceof Expression.Binary binary
                && binary.operator() == Operator.ADD
                && binary.right() instanceof Expression.Number delay) {
            Start base = start(flow, binary.left(), visiting);
            return new Start(nanos(flow, delay.value(), base.nanos()), base.after());
        }
        throw refuse(
                flow, "has a start the packet evaluator cannot simulate; use a time, e(f), st(f), or those + a time");
    }

    /** {@code base} plus {@code seconds}, in nanoseconds; refused past the simulated time. */
    private static long nanos(Flow flow, double seconds, long base) {
        double nanos = base + seconds * 1e9;
        if (nanos > PacketSimulator.HORIZON_SECONDS * 1e9) {
            throw refuse(
                    flow, "starts after the " + PacketSimulator.HORIZON_SECONDS + " s the packet evaluator simulates");
        }
        return Math.round(nanos);
    }

    /**
     * The flows whose progress a transfer bound follows ({@code t(g)}): the flow forwards what they carried, so it
     * waits for them. Other references ({@code sz(g)}) are constants and make the bound a plain cap.
     */
    private Set<Flow> followed(Expression expression) {
        if (expression instanceof Expression.Reference reference) {
            return reference.attribute() == Attribute.TRANSFER ? Set.of(target(reference)) : Set.of();
        }
        if (expression instanceof Expression.Binary binary) {
            Set<Flow> flows = new HashSet<>(followed(binary.left()));
            flows.addAll(followed(binary.right()));
            return flows;
        }
        return Set.of();
    }

    private Flow target(Expression.Reference reference) {
        // The validator has checked that every reference names a flow.
        return model.query().flow(reference.flow()).orElseThrow();
    }

    private static double arithmetic(Operator operator, double left, double right) {
        return switch (operator) {
            case ADD -> left + right;
            case SUBTRACT -> left - right;
            case MULTIPLY -> left * right;
            case DIVIDE -> left / right;
        };
    }

    private static EvaluationException refuse(Flow flow, String why) {
        return new EvaluationException("packet evaluator: flow " + flow.displayName() + " " + why);
    }
}
