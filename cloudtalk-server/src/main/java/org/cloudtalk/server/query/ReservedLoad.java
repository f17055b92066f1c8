package org.cloudtalk.server.query;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * The load a recommendation will put on one host, in bytes/s per resource: what a pseudo-reservation stands for until
 * the host's daemon can see the traffic itself. Several reservations on one host add up.
 */
public record ReservedLoad(double rx, double tx, double diskRead, double diskWrite) {
    public static final ReservedLoad NONE = new ReservedLoad(0, 0, 0, 0);

    public ReservedLoad plus(ReservedLoad other) {
        return new ReservedLoad(
                sum(rx, other.rx), sum(tx, other.tx), sum(diskRead, other.diskRead), sum(diskWrite, other.diskWrite));
    }

    /**
     * A sum of rates held finite: reservations at a capacity near the largest double (a status file may say 1e308)
     * would add up to infinity, and infinity minus infinity, when one expires, to NaN.
     */
    private static double sum(double a, double b) {
        return finite(a + b);
    }

    private static double finite(double rate) {
        return Math.min(rate, Double.MAX_VALUE);
    }

    /** Never below zero, nor NaN. */
    private static double difference(double a, double b) {
        double difference = a - b;
        return difference > 0 ? difference : 0;
    }

    public ReservedLoad minus(ReservedLoad other) {
        return new ReservedLoad(
                difference(rx, other.rx),
                difference(tx, other.tx),
                difference(diskRead, other.diskRead),
                difference(diskWrite, other.diskWrite));
    }

    /** Every resource's rate times {@code factor} (not negative). */
    public ReservedLoad times(double factor) {
        return new ReservedLoad(
                finite(rx * factor), finite(tx * factor), finite(diskRead * factor), finite(diskWrite * factor));
    }

    /** Each resource's rate, but no more than {@code limit}'s. */
    public ReservedLoad atMost(ReservedLoad limit) {
        return new ReservedLoad(
                Math.min(rx, limit.rx),
                Math.min(tx, limit.tx),
                Math.min(diskRead, limit.diskRead),
                Math.min(diskWrite, limit.diskWrite));
    }

    /**
     * The host's load with this reservation counted as {@code weight} times its rate of use. The heuristic scores
     * {@code capacity - use / W}: background use is elastic traffic that will yield to a new flow, but reserved load
     * is the new flows themselves, so with {@code weight = W} a reservation lowers the score by its full rate, and a
     * host reserved to its capacity scores no better than one whose status is missing.
     */
    HostLoad addTo(HostLoad load, double weight) {
        return new HostLoad(
                load.rxCapacity(),
                sum(load.rxUse(), weight * rx),
                load.txCapacity(),
                sum(load.txUse(), weight * tx),
                load.diskReadCapacity(),
                sum(load.diskReadUse(), weight * diskRead),
                load.diskWriteCapacity(),
                sum(load.diskWriteUse(), weight * diskWrite));
    }

    /**
     * What an answer will cause on each host a variable was bound to: every flow through the host counts at its
     * {@code rate} if that is a number, else its {@code size} spread over {@code spread} (the reservation's weight over
     * its life, {@link Reservations#sizeSpread}), and never more than the resource's capacity (a flow cannot go
     * faster); a flow with neither counts at capacity. Hosts the query names literally are the tenant's own choice and
     * are not reserved.
     */
    static Map<String, ReservedLoad> forAnswer(QueryModel model, Binding binding, ClusterState state, Duration spread) {
        Map<String, ReservedLoad> loads = new HashMap<>();
        if (spread.isZero() || spread.isNegative()) {
            return loads;
        }
        double spreadSeconds = spread.toNanos() / 1e9;
        List<Flow> flows = model.query().flows();
        for (Flow flow : flows) {
            String source = model.resolve(flow.source(), binding);
            String destination = model.resolve(flow.destination(), binding);
            boolean sourceChosen = model.isVariable(QueryModel.key(flow.source()));
            boolean destinationChosen = model.isVariable(QueryModel.key(flow.destination()));
            double rate = rate(flow, flows, spreadSeconds);
            if (source.equals(QueryModel.DISK)) {
                if (destinationChosen) {
                    HostLoad load = state.load(destination);
                    add(loads, destination, new ReservedLoad(0, 0, Math.min(rate, load.diskReadCapacity()), 0));
                }
            } else if (destination.equals(QueryModel.DISK)) {
                if (sourceChosen) {
                    HostLoad load = state.load(source);
                    add(loads, source, new ReservedLoad(0, 0, 0, Math.min(rate, load.diskWriteCapacity())));
                }
            } else if (!source.equals(destination)) {
                if (sourceChosen && !source.equals(QueryModel.UNKNOWN_SOURCE)) {
                    add(
                            loads,
                            source,
                            new ReservedLoad(
                                    0, Math.min(rate, state.load(source).txCapacity()), 0, 0));
                }
                if (destinationChosen) {
                    add(
                            loads,
                            destination,
                            new ReservedLoad(
                                    Math.min(rate, state.load(destination).rxCapacity()), 0, 0, 0));
                }
            }
        }
        return loads;
    }

    private static void add(Map<String, ReservedLoad> loads, String host, ReservedLoad load) {
        loads.merge(host, load, ReservedLoad::plus);
    }

    /** Bytes/s the flow will use while held: its numeric rate, else its size over the spread, else unbounded. */
    private static double rate(Flow flow, List<Flow> flows, double spreadSeconds) {
        double rate = flow.attribute(Attribute.RATE)
                .map(expression -> constant(expression, flows, 0))
                .orElse(Double.NaN);
        if (rate >= 0) {
            return rate;
        }
        double size = flow.attribute(Attribute.SIZE)
                .map(expression -> constant(expression, flows, 0))
                .orElse(Double.NaN);
        return size >= 0 ? size / spreadSeconds : Double.POSITIVE_INFINITY;
    }

    /** The expression's value where it is known before the flows run (numbers, sizes); NaN otherwise. */
    private static double constant(Expression expression, List<Flow> flows, int depth) {
        if (depth > flows.size()) {
            return Double.NaN; // a cycle of size references: the validator rejects those, but never loop
        }
        if (expression instanceof Expression.Number number) {
            return number.value();
        }
        if (expression instanceof Expression.Reference reference) {
            Optional<Flow> target = find(reference.flow(), flows);
            if (reference.attribute() != Attribute.SIZE || target.isEmpty()) {
                return Double.NaN;
            }
            return target.get()
                    .attribute(Attribute.SIZE)
                    .map(size -> constant(size, flows, depth + 1))
                    .orElse(Double.NaN);
        }
        Expression.Binary binary = (Expression.Binary) expression;
        return binary.operator()
                .apply(constant(binary.left(), flows, depth + 1), constant(binary.right(), flows, depth + 1));
    }

    private static Optional<Flow> find(FlowSelector selector, List<Flow> flows) {
        if (selector instanceof FlowSelector.ByPosition byPosition) {
            int index = byPosition.position() - 1;
            return index < flows.size() ? Optional.of(flows.get(index)) : Optional.empty();
        }
        String name = ((FlowSelector.ByName) selector).name();
        return flows.stream()
                .filter(flow ->
                        flow.name().isPresent() && flow.name().get().value().equals(name))
                .findFirst();
    }
}
