package org.cloudtalk.server.eval.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.CostLimitException;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;

/**
 * The flow-level estimator (§4): a fluid simulation in which the flows of a bound query share the capacity the
 * hosts have left (background use is inelastic) max-min fairly, as if bottlenecks were only at the hosts' links and
 * disks (a full-bisection core); {@link HostResources} says which resources a flow uses.
 *
 * <p>Restrictions: {@code rate} caps a flow's rate (re-evaluated with the current rates until they stabilise);
 * flows whose rates refer to each other in a cycle ({@code f1 ... rate r(f2)}, {@code f2 ... rate r(f1)}) run at one
 * common rate and are filled as one group, so coupled pairs sharing a link settle instead of swapping rates every
 * pass; {@code transfer} keeps a flow's transferred bytes at
 * or below a bound, so once it catches up it moves no faster than the bound grows; {@code start} delays a flow (it
 * may wait for {@code e(g)}); {@code size} or {@code end} makes it finite.
 *
 * <p>Between events (a flow starting, finishing, or catching up with its transfer bound) rates are constant, so time
 * jumps from event to event; the deadline is checked at every event and every pass of the rates, and the number of
 * events is bounded. Thread-safe: every call works on its own state.
 */
public final class FlowEstimator {
    public static final int DEFAULT_MAX_EVENTS = 100_000;
    /** Rate of a flow that uses no shared resource (host to itself): effectively instantaneous. */
    static final double LOCAL_RATE = 1e15;

    private static final double EPSILON = 1e-9;
    private static final int MAX_RATE_ITERATIONS = 200;

    private final int maxEvents;

    public FlowEstimator() {
        this(DEFAULT_MAX_EVENTS);
    }

    /** @param maxEvents most events one estimate may simulate; more is a {@link CostLimitException} */
    public FlowEstimator(int maxEvents) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be positive: " + maxEvents);
        }
        this.maxEvents = maxEvents;
    }

    public FlowEstimate estimate(QueryModel model, Binding binding, ClusterState state) {
        return estimate(model, binding, state, Deadline.none());
    }

    /**
     * @throws org.cloudtalk.server.deadline.DeadlineExceededException when the deadline passes first
     * @throws CostLimitException when the simulation needs more events than allowed
     */
    public FlowEstimate estimate(QueryModel model, Binding binding, ClusterState state, Deadline deadline) {
        return new Simulation(model, binding, state, deadline).run(maxEvents);
    }

    private static final class Simulation {
        private final List<Flow> flows;
        private final int count;
        private final int[][] resources;
        private final double[] capacity;
        private final double[] size;
        private final double[] start;
        private final double[] end;
        private final double[] transferred;
        private final double[] rate;
        private final boolean[] active;
        private final boolean[] done;
        private final double[] finishedAt;
        private final Map<String, Integer> byName = new HashMap<>();
        private final Deadline deadline;
        /** Each flow's rate group (flows in one cycle of rate references), or -1. */
        private final int[] group;
        /** The units the water-filling raises together: a group's flows, or a single flow. */
        private final int[][] units;
        /** Each unit's resources, once per member using it (a group uses a shared link once per member). */
        private final int[][] unitResources;
        // Scratch space for computing rates, allocated once: the estimate runs thousands of passes per query.
        private final double[] caps;
        private final double[] previousRate;
        private final double[] left;
        private final double[] unitCap;
        private final double[] unitRate;
        private final boolean[] unitFrozen;
        private final int[] users;
        private double now;

        Simulation(QueryModel model, Binding binding, ClusterState state, Deadline deadline) {
            this.deadline = deadline;
            flows = model.query().flows();
            count = flows.size();
            resources = new int[count][];
            size = new double[count];
            start = new double[count];
            end = new double[count];
            transferred = new double[count];
            rate = new double[count];
            active = new boolean[count];
            done = new boolean[count];
            finishedAt = new double[count];
            Arrays.fill(size, Double.NaN);
            Arrays.fill(start, Double.NaN);
            Arrays.fill(end, Double.NaN);
            Arrays.fill(finishedAt, Double.NaN);
            List<Double> capacities = new ArrayList<>();
            Map<String, Integer> resourceIds = new HashMap<>();
            for (int f = 0; f < count; f++) {
                Flow flow = flows.get(f);
                flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), flow.position() - 1));
                String source = model.resolve(flow.source(), binding);
                String destination = model.resolve(flow.destination(), binding);
                List<String> used = HostResources.used(source, destination);
                resources[f] = new int[used.size()];
                for (int i = 0; i < used.size(); i++) {
                    String resource = used.get(i);
                    Integer id = resourceIds.get(resource);
                    if (id == null) {
                        id = capacities.size();
                        resourceIds.put(resource, id);
                        capacities.add(HostResources.available(state, resource));
                    }
                    resources[f][i] = id;
                }
            }
            capacity = capacities.stream().mapToDouble(Double::doubleValue).toArray();
            group = rateGroups();
            units = units();
            unitResources = new int[units.length][];
            for (int u = 0; u < units.length; u++) {
                unitResources[u] = Arrays.stream(units[u])
                        .flatMap(f -> Arrays.stream(resources[f]))
                        .toArray();
            }
            caps = new double[count];
            previousRate = new double[count];
            left = new double[capacity.length];
            unitCap = new double[units.length];
            unitRate = new double[units.length];
            unitFrozen = new boolean[units.length];
            users = new int[capacity.length];
        }

        /**
         * Flows whose rate is exactly another's ({@code rate r(g)}) point to it; every cycle of such pointers is a
         * group whose flows all run at one rate (each is at most the next, round the cycle).
         */
        private int[] rateGroups() {
            int[] next = new int[count];
            for (int f = 0; f < count; f++) {
                next[f] = flows.get(f)
                        .attribute(Attribute.RATE)
                        .filter(expression -> expression instanceof Expression.Reference reference
                                && reference.attribute() == Attribute.RATE)
                        .map(expression -> target(((Expression.Reference) expression).flow()))
                        .orElse(-1);
            }
            int[] groups = new int[count];
            Arrays.fill(groups, -1);
            int[] visitedFrom = new int[count];
            Arrays.fill(visitedFrom, -1);
            int groupCount = 0;
            for (int f = 0; f < count; f++) {
                int g = f;
                while (g >= 0 && visitedFrom[g] < 0) {
                    visitedFrom[g] = f;
                    g = next[g];
                }
                if (g >= 0 && visitedFrom[g] == f && next[g] != g) {
                    // This walk closed a new cycle of two or more flows at g.
                    int member = g;
                    do {
                        groups[member] = groupCount;
                        member = next[member];
                    } while (member != g);
                    groupCount++;
                }
            }
            return groups;
        }

        private int[][] units() {
            List<int[]> result = new ArrayList<>();
            Map<Integer, List<Integer>> members = new HashMap<>();
            for (int f = 0; f < count; f++) {
                if (group[f] < 0) {
                    result.add(new int[] {f});
                } else {
                    members.computeIfAbsent(group[f], unused -> new ArrayList<>())
                            .add(f);
                }
            }
            members.values()
                    .forEach(list ->
                            result.add(list.stream().mapToInt(Integer::intValue).toArray()));
            return result.toArray(int[][]::new);
        }

        FlowEstimate run(int maxEvents) {
            for (int events = 0; ; events++) {
                deadline.check();
                activate();
                if (allFiniteDone()) {
                    return result();
                }
                if (events == maxEvents) {
                    throw new CostLimitException("estimating this query's completion takes more than " + maxEvents
                            + " flow events (limits.estimator.events)");
                }
                computeRates();
                double step = nextEvent();
                if (Double.isInfinite(step)) {
                    return result(); // nothing can make progress any more
                }
                advance(step);
            }
        }

        private void activate() {
            for (int f = 0; f < count; f++) {
                if (active[f] || done[f]) {
                    continue;
                }
                if (Double.isNaN(start[f])) {
                    start[f] = value(f, Attribute.START, 0);
                }
                if (!Double.isNaN(start[f]) && start[f] <= now + EPSILON) {
                    active[f] = true;
                    size[f] = value(f, Attribute.SIZE, Double.NaN);
                    end[f] = value(f, Attribute.END, Double.NaN);
                }
            }
        }

        private boolean allFiniteDone() {
            for (int f = 0; f < count; f++) {
                if (!done[f] && isFinite(f)) {
                    return false;
                }
            }
            return true;
        }

        private boolean isFinite(int f) {
            return flows.get(f).has(Attribute.SIZE) || flows.get(f).has(Attribute.END);
        }

        /** Max-min fair rates under the current caps, repeated until the caps (which may refer to rates) settle. */
        private void computeRates() {
            Arrays.fill(caps, Double.POSITIVE_INFINITY);
            waterFill();
            for (int iteration = 0; iteration < MAX_RATE_ITERATIONS; iteration++) {
                deadline.check();
                for (int f = 0; f < count; f++) {
                    caps[f] = active[f] ? cap(f) : 0;
                }
                System.arraycopy(rate, 0, previousRate, 0, count);
                waterFill();
                double change = 0;
                for (int f = 0; f < count; f++) {
                    change = Math.max(change, Math.abs(rate[f] - previousRate[f]) / Math.max(1, previousRate[f]));
                }
                if (change < EPSILON) {
                    return;
                }
            }
        }

        private double cap(int f) {
            double cap = Double.POSITIVE_INFINITY;
            Optional<Expression> rateLimit = flows.get(f).attribute(Attribute.RATE);
            // A group's rate references are its common rate, which the water-filling enforces.
            if (rateLimit.isPresent() && group[f] < 0) {
                double limit = evaluate(rateLimit.get());
                if (!Double.isNaN(limit)) {
                    cap = Math.max(0, limit);
                }
            }
            Optional<Expression> bound = flows.get(f).attribute(Attribute.TRANSFER);
            if (bound.isPresent()) {
                double allowed = evaluate(bound.get());
                if (!Double.isNaN(allowed) && transferred[f] >= allowed - EPSILON * Math.max(1, allowed)) {
                    cap = Math.min(cap, Math.max(0, growth(bound.get())));
                }
            }
            return cap;
        }

        /**
         * Max-min fair rates: every unit not yet frozen rises by the same amount until a resource it uses is full or
         * it reaches its cap. A group's flows rise together, so a group stops as soon as any of its flows is
         * limited; a group with a flow that is not running (not started, or done) does not move at all, as each of
         * its flows is held to that flow's rate of 0.
         */
        private void waterFill() {
            System.arraycopy(capacity, 0, left, 0, capacity.length);
            Arrays.fill(unitRate, 0);
            boolean[] frozen = unitFrozen;
            int unfrozen = 0;
            for (int u = 0; u < units.length; u++) {
                unitCap[u] = Double.POSITIVE_INFINITY;
                for (int f : units[u]) {
                    unitCap[u] = Math.min(unitCap[u], !active[f] || done[f] ? 0 : caps[f]);
                }
                frozen[u] = unitCap[u] <= 0;
                if (!frozen[u] && unitResources[u].length == 0) {
                    unitRate[u] = Math.min(unitCap[u], LOCAL_RATE);
                    frozen[u] = true;
                }
                if (!frozen[u]) {
                    unfrozen++;
                }
            }
            while (unfrozen > 0) {
                Arrays.fill(users, 0);
                for (int u = 0; u < units.length; u++) {
                    if (!frozen[u]) {
                        for (int r : unitResources[u]) {
                            users[r]++;
                        }
                    }
                }
                double delta = Double.POSITIVE_INFINITY;
                for (int r = 0; r < left.length; r++) {
                    if (users[r] > 0) {
                        delta = Math.min(delta, left[r] / users[r]);
                    }
                }
                for (int u = 0; u < units.length; u++) {
                    if (!frozen[u]) {
                        delta = Math.min(delta, unitCap[u] - unitRate[u]);
                    }
                }
                delta = Math.max(0, delta);
                for (int u = 0; u < units.length; u++) {
                    if (!frozen[u]) {
                        unitRate[u] += delta;
                        for (int r : unitResources[u]) {
                            left[r] -= delta;
                        }
                    }
                }
                for (int u = 0; u < units.length; u++) {
                    if (frozen[u]) {
                        continue;
                    }
                    boolean saturated = unitRate[u] >= unitCap[u] - EPSILON * Math.max(1, unitCap[u]);
                    for (int r : unitResources[u]) {
                        saturated |= left[r] <= EPSILON * Math.max(1, capacity[r]);
                    }
                    if (saturated) {
                        frozen[u] = true;
                        unfrozen--;
                    }
                }
            }
            Arrays.fill(rate, 0);
            for (int u = 0; u < units.length; u++) {
                for (int f : units[u]) {
                    if (active[f] && !done[f]) {
                        rate[f] = unitRate[u];
                    }
                }
            }
        }

        /** Time to the next event: a finite flow finishing, a deadline, a start, a flow catching up with its bound. */
        private double nextEvent() {
            double step = Double.POSITIVE_INFINITY;
            for (int f = 0; f < count; f++) {
                if (active[f] && !done[f]) {
                    if (!Double.isNaN(size[f]) && rate[f] > 0) {
                        step = Math.min(step, (size[f] - transferred[f]) / rate[f]);
                    }
                    if (!Double.isNaN(end[f])) {
                        step = Math.min(step, Math.max(0, end[f] - now));
                    }
                    Optional<Expression> bound = flows.get(f).attribute(Attribute.TRANSFER);
                    if (bound.isPresent()) {
                        double gap = evaluate(bound.get()) - transferred[f];
                        double closing = rate[f] - growth(bound.get());
                        if (gap > EPSILON && closing > EPSILON) {
                            step = Math.min(step, gap / closing);
                        }
                    }
                } else if (!active[f] && !done[f] && !Double.isNaN(start[f])) {
                    step = Math.min(step, Math.max(0, start[f] - now));
                }
            }
            return step;
        }

        private void advance(double step) {
            now += step;
            for (int f = 0; f < count; f++) {
                if (!active[f] || done[f]) {
                    continue;
                }
                transferred[f] += rate[f] * step;
                boolean sizeReached =
                        !Double.isNaN(size[f]) && transferred[f] >= size[f] - EPSILON * Math.max(1, size[f]);
                boolean deadline = !Double.isNaN(end[f]) && now >= end[f] - EPSILON;
                if (sizeReached || deadline) {
                    if (sizeReached) {
                        transferred[f] = size[f];
                    }
                    done[f] = true;
                    active[f] = false;
                    finishedAt[f] = now;
                    rate[f] = 0;
                }
            }
        }

        private FlowEstimate result() {
            List<Double> ends = new ArrayList<>(count);
            double completion = Double.NaN;
            for (int f = 0; f < count; f++) {
                double flowEnd = !isFinite(f) ? Double.NaN : done[f] ? finishedAt[f] : Double.POSITIVE_INFINITY;
                ends.add(flowEnd);
                if (!Double.isNaN(flowEnd)) {
                    completion = Double.isNaN(completion) ? flowEnd : Math.max(completion, flowEnd);
                }
            }
            return new FlowEstimate(completion, ends);
        }

        /** An attribute's value now, or {@code absent} if the flow does not restrict it; NaN if not yet known. */
        private double value(int f, Attribute attribute, double absent) {
            Optional<Expression> expression = flows.get(f).attribute(attribute);
            return expression.isPresent() ? evaluate(expression.get()) : absent;
        }

        private double evaluate(Expression expression) {
            if (expression instanceof Expression.Number number) {
                return number.value();
            }
            if (expression instanceof Expression.Reference reference) {
                int g = target(reference.flow());
                return switch (reference.attribute()) {
                    case START -> start[g];
                    case END -> finishedAt[g];
                    case SIZE -> Double.isNaN(size[g]) ? value(g, Attribute.SIZE, Double.NaN) : size[g];
                    case RATE -> rate[g];
                    case TRANSFER -> transferred[g];
                };
            }
            Expression.Binary binary = (Expression.Binary) expression;
            return binary.operator().apply(evaluate(binary.left()), evaluate(binary.right()));
        }

        /** How fast an expression grows now: transfers grow at their flow's rate; other references are constant. */
        private double growth(Expression expression) {
            if (expression instanceof Expression.Number) {
                return 0;
            }
            if (expression instanceof Expression.Reference reference) {
                return reference.attribute() == Attribute.TRANSFER ? rate[target(reference.flow())] : 0;
            }
            Expression.Binary binary = (Expression.Binary) expression;
            return switch (binary.operator()) {
                case ADD -> growth(binary.left()) + growth(binary.right());
                case SUBTRACT -> growth(binary.left()) - growth(binary.right());
                case MULTIPLY -> growth(binary.left()) * evaluate(binary.right())
                        + evaluate(binary.left()) * growth(binary.right());
                case DIVIDE -> growth(binary.left()) / evaluate(binary.right());
            };
        }

        private int target(FlowSelector selector) {
            if (selector instanceof FlowSelector.ByPosition byPosition) {
                return byPosition.position() - 1;
            }
            return byName.get(((FlowSelector.ByName) selector).name());
        }
    }
}
