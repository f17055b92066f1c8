package org.cloudtalk.server.eval.flow;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.CostLimitException;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.topology.Topology;

/**
 * The flow-level estimator (§4): a fluid simulation in which the flows of a bound query share the capacity the
 * hosts have left (background use is inelastic) max-min fairly. Without a topology bottlenecks are only at the hosts'
 * links and disks (a full-bisection core), as in the paper; with one, network flows also share the rack and pod
 * uplinks they cross ({@link Fabric}), at their full rate. {@link HostResources} says which host resources a flow
 * uses; a flow's resources are its path, and the water-filling treats every resource alike.
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
    /** Most uplinks one flow crosses: up through its rack's and pod's, down through the others'. */
    public static final int MAX_UPLINKS = 4;
    /** Rate of a flow that uses no shared resource (host to itself): effectively instantaneous. */
    static final double LOCAL_RATE = 1e15;

    private static final double EPSILON = 1e-9;
    private static final int MAX_RATE_ITERATIONS = 200;

    private final int maxEvents;
    private final Fabric fabric;

    public FlowEstimator() {
        this(DEFAULT_MAX_EVENTS);
    }

    /** @param maxEvents most events one estimate may simulate; more is a {@link CostLimitException} */
    public FlowEstimator(int maxEvents) {
        this(maxEvents, Optional.empty());
    }

    /**
     * @param maxEvents most events one estimate may simulate; more is a {@link CostLimitException}
     * @param topology whose rack and pod uplinks flows share as well; empty for a full-bisection core
     */
    public FlowEstimator(int maxEvents, Optional<Topology> topology) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be positive: " + maxEvents);
        }
        this.maxEvents = maxEvents;
        this.fabric = requireNonNull(topology, "topology is null").isPresent() ? new Fabric(topology) : Fabric.NONE;
    }

    public FlowEstimate estimate(QueryModel model, Binding binding, ClusterState state) {
        return estimate(model, binding, state, Deadline.none());
    }

    /**
     * @throws org.cloudtalk.server.deadline.DeadlineExceededException when the deadline passes first
     * @throws CostLimitException when the simulation needs more events than allowed
     */
    public FlowEstimate estimate(QueryModel model, Binding binding, ClusterState state, Deadline deadline) {
        return prepare(model, state).estimate(binding, deadline);
    }

    /**
     * The query's flows arranged once for estimating many bindings in one cluster state, as a search does: the
     * per-flow work that does not depend on the binding (attributes, rate groups, endpoint texts) and each host's
     * available capacity are computed once instead of once per estimate.
     */
    public Prepared prepare(QueryModel model, ClusterState state) {
        return new Prepared(model, state);
    }

    /**
     * A query and cluster state ready to estimate bindings. Not thread-safe (it caches hosts' capacities and
     * reuses scratch arrays): one per search. A search's lower bound shares its numbering of hosts and uplinks
     * ({@link #host}, {@link #uplinks}, {@link #available}), so both count the same resources.
     */
    public final class Prepared {
        private static final int KINDS = HostResources.Kind.values().length;

        private final ClusterState state;
        private final List<Flow> flows;
        private final int count;
        private final String[] variableNames;
        /** Each flow's endpoint: a variable's index, or -1 and the literal's text. */
        private final int[] sourceVariable;

        private final String[] sourceLiteral;
        private final int[] destinationVariable;
        private final String[] destinationLiteral;
        /** Each flow's attribute expressions (null where absent), indexed by {@code Attribute} ordinal. */
        private final Expression[][] attributes;

        private final Map<String, Integer> byName = new HashMap<>();
        /** Each flow's rate group (flows in one cycle of rate references), or -1. */
        private final int[] group;
        /** The units the water-filling raises together: a group's flows, or a single flow. */
        private final int[][] units;
        /**
         * The resources seen so far, numbered as first seen: each host's {@code KINDS} resources, and with a topology
         * each uplink's two directions (up, then down). Their available rates, cached.
         */
        private double[] capacityOf = new double[0];

        private int resourceCount;
        /** Each host seen so far: its number, and the first of its resources. */
        private final Map<String, Integer> hosts = new HashMap<>();

        private int[] hostResources = new int[0];
        /**
         * With a topology, each host seen so far: its rack and pod (-1 on the core), and the first resource of its
         * rack's uplink and of its pod's.
         */
        private int[] hostRack = new int[0];

        private int[] hostPod = new int[0];
        private int[] rackUplink = new int[0];
        private int[] podUplink = new int[0];
        /** The first resource of each uplink seen so far (by rack, by pod number). */
        private final Map<Integer, Integer> rackUplinks = new HashMap<>();

        private final Map<Integer, Integer> podUplinks = new HashMap<>();
        // Scratch for numbering one binding's resources densely: local id of a resource, valid at stamp.
        private int[] localId = new int[0];
        private int[] localStamp = new int[0];
        private int stamp;
        /** Scratch: one flow's path: its source's link, the uplinks it crosses, its destination's link. */
        private final int[] path = new int[2 + MAX_UPLINKS];

        private Prepared(QueryModel model, ClusterState state) {
            this.state = state;
            flows = model.query().flows();
            count = flows.size();
            List<QueryModel.Variable> variables = model.variables();
            variableNames = new String[variables.size()];
            Map<String, Integer> variableIndex = new HashMap<>();
            for (int v = 0; v < variableNames.length; v++) {
                variableNames[v] = variables.get(v).name();
                variableIndex.put(variableNames[v], v);
            }
            sourceVariable = new int[count];
            sourceLiteral = new String[count];
            destinationVariable = new int[count];
            destinationLiteral = new String[count];
            Attribute[] kinds = Attribute.values();
            attributes = new Expression[kinds.length][count];
            for (int f = 0; f < count; f++) {
                Flow flow = flows.get(f);
                flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), flow.position() - 1));
                String source = QueryModel.key(flow.source());
                sourceVariable[f] = variableIndex.getOrDefault(source, -1);
                sourceLiteral[f] = source;
                String destination = QueryModel.key(flow.destination());
                destinationVariable[f] = variableIndex.getOrDefault(destination, -1);
                destinationLiteral[f] = destination;
                for (Attribute attribute : kinds) {
                    attributes[attribute.ordinal()][f] =
                            flow.attribute(attribute).orElse(null);
                }
            }
            group = rateGroups();
            units = units();
        }

        /** @see FlowEstimator#estimate(QueryModel, Binding, ClusterState, Deadline) */
        public FlowEstimate estimate(Binding binding, Deadline deadline) {
            return estimate(variable -> binding.valueOf(variableNames[variable]), deadline);
        }

        /**
         * The estimate with each variable (by its index in {@link QueryModel#variables()}) bound to {@code
         * valueOf}'s address.
         */
        public FlowEstimate estimate(IntFunction<String> valueOf, Deadline deadline) {
            stamp++;
            int[][] resources = new int[count][];
            double[] capacity = new double[(fabric.isEmpty() ? 2 : 2 + MAX_UPLINKS) * count];
            int used = 0;
            for (int f = 0; f < count; f++) {
                String source = sourceVariable[f] < 0 ? sourceLiteral[f] : valueOf.apply(sourceVariable[f]);
                String destination =
                        destinationVariable[f] < 0 ? destinationLiteral[f] : valueOf.apply(destinationVariable[f]);
                int length = path(source, destination);
                resources[f] = new int[length];
                for (int i = 0; i < length; i++) {
                    int resource = path[i];
                    if (localStamp[resource] != stamp) {
                        localStamp[resource] = stamp;
                        localId[resource] = used;
                        capacity[used++] = capacityOf[resource];
                    }
                    resources[f][i] = localId[resource];
                }
            }
            return new Simulation(this, resources, Arrays.copyOf(capacity, used), deadline).run(maxEvents);
        }

        /**
         * Writes into {@link #path} the resources a flow between two endpoints uses, in order: its host resources,
         * and for a network flow the uplinks it crosses between its source's link and its destination's. Returns
         * their number.
         */
        private int path(String source, String destination) {
            List<HostResources.Use> uses = HostResources.uses(source, destination);
            int length = 0;
            for (int i = 0; i < uses.size(); i++) {
                HostResources.Use use = uses.get(i);
                int host = host(use.onSource() ? source : destination);
                if (use.kind() == HostResources.Kind.RX && !fabric.isEmpty()) {
                    // The unknown source is somewhere beyond the core, like a host the topology does not list.
                    length = uplinks(source.equals(QueryModel.UNKNOWN_SOURCE) ? -1 : host(source), host, path, length);
                }
                path[length++] = hostResources[host] + use.kind().ordinal();
            }
            return length;
        }

        /** Whether flows share uplinks too (there is a topology), so {@link #uplinks} may add to a path. */
        public boolean hasUplinks() {
            return !fabric.isEmpty();
        }

        /**
         * Writes into {@code into} from {@code at} the uplinks a network flow crosses between two hosts (by {@link
         * #host} number; -1 for the unknown source, beyond the core): the source rack's up and its pod's up, the
         * destination pod's down and its rack's down, where the flow leaves that rack or pod. Returns where the path
         * ends; at most {@link #MAX_UPLINKS} are written. Resources are numbered as in {@link #available}.
         */
        public int uplinks(int source, int destination, int[] into, int at) {
            int sourceRack = source < 0 ? -1 : hostRack[source];
            int destinationRack = hostRack[destination];
            if (sourceRack == destinationRack) {
                return at; // within one rack, or between two hosts on the core
            }
            int sourcePod = source < 0 ? -1 : hostPod[source];
            int destinationPod = hostPod[destination];
            int end = at;
            if (sourceRack >= 0) {
                into[end++] = rackUplink[source];
            }
            if (sourcePod != destinationPod) {
                if (sourcePod >= 0) {
                    into[end++] = podUplink[source];
                }
                if (destinationPod >= 0) {
                    into[end++] = podUplink[destination] + 1;
                }
            }
            if (destinationRack >= 0) {
                into[end++] = rackUplink[destination] + 1;
            }
            return end;
        }

        /** Bytes/s a resource has available: one numbered by {@link #host} or {@link #uplinks}. */
        public double available(int resource) {
            return capacityOf[resource];
        }

        /** Resources numbered so far: every number {@link #uplinks} gave is below. */
        public int resourceCount() {
            return resourceCount;
        }

        /**
         * A host's number (not the unknown source's); the first time it is seen, its resources' available rates and
         * its uplinks are cached.
         */
        public int host(String host) {
            Integer known = hosts.get(host);
            if (known != null) {
                return known;
            }
            int index = hosts.size();
            hosts.put(host, index);
            if (index == hostResources.length) {
                int grown = Math.max(4, 2 * index);
                hostResources = Arrays.copyOf(hostResources, grown);
                hostRack = Arrays.copyOf(hostRack, grown);
                hostPod = Arrays.copyOf(hostPod, grown);
                rackUplink = Arrays.copyOf(rackUplink, grown);
                podUplink = Arrays.copyOf(podUplink, grown);
            }
            hostResources[index] = newResources(KINDS);
            for (HostResources.Kind kind : HostResources.Kind.values()) {
                capacityOf[hostResources[index] + kind.ordinal()] = HostResources.available(state, host, kind);
            }
            int rack = fabric.rack(host);
            hostRack[index] = rack;
            hostPod[index] = rack < 0 ? -1 : fabric.podOf(rack);
            if (rack >= 0) {
                rackUplink[index] = uplink(rackUplinks, rack, fabric.rackUplink(rack));
                podUplink[index] = uplink(podUplinks, fabric.podOf(rack), fabric.podUplink(fabric.podOf(rack)));
            }
            return index;
        }

        /** The first of an uplink's two resources (up, down), numbered the first time a host behind it is seen. */
        private int uplink(Map<Integer, Integer> seen, int uplink, double rate) {
            Integer known = seen.get(uplink);
            if (known != null) {
                return known;
            }
            int first = newResources(2);
            capacityOf[first] = rate;
            capacityOf[first + 1] = rate;
            seen.put(uplink, first);
            return first;
        }

        /** Numbers {@code n} new resources and returns the first. */
        private int newResources(int n) {
            int first = resourceCount;
            resourceCount += n;
            if (resourceCount > capacityOf.length) {
                int grown = Math.max(resourceCount, 2 * capacityOf.length);
                capacityOf = Arrays.copyOf(capacityOf, grown);
                localId = Arrays.copyOf(localId, grown);
                localStamp = Arrays.copyOf(localStamp, grown);
            }
            return first;
        }

        private Expression attribute(int f, Attribute attribute) {
            return attributes[attribute.ordinal()][f];
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

        private int target(FlowSelector selector) {
            if (selector instanceof FlowSelector.ByPosition byPosition) {
                return byPosition.position() - 1;
            }
            return byName.get(((FlowSelector.ByName) selector).name());
        }
    }

    /** One estimate: a binding's flows on their resources (numbered densely), simulated event by event. */
    private static final class Simulation {
        private final Prepared plan;
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
        private final Deadline deadline;
        private final int[] group;
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

        Simulation(Prepared plan, int[][] resources, double[] capacity, Deadline deadline) {
            this.plan = plan;
            this.resources = resources;
            this.capacity = capacity;
            this.deadline = deadline;
            count = plan.count;
            group = plan.group;
            units = plan.units;
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
            unitResources = new int[units.length][];
            for (int u = 0; u < units.length; u++) {
                int length = 0;
                for (int f : units[u]) {
                    length += resources[f].length;
                }
                unitResources[u] = new int[length];
                int at = 0;
                for (int f : units[u]) {
                    System.arraycopy(resources[f], 0, unitResources[u], at, resources[f].length);
                    at += resources[f].length;
                }
            }
            caps = new double[count];
            previousRate = new double[count];
            left = new double[capacity.length];
            unitCap = new double[units.length];
            unitRate = new double[units.length];
            unitFrozen = new boolean[units.length];
            users = new int[capacity.length];
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
                    // A size that references made negative as the flows ran carries nothing (NaN, no size, stays).
                    size[f] = Math.max(0, value(f, Attribute.SIZE, Double.NaN));
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
            return plan.attribute(f, Attribute.SIZE) != null || plan.attribute(f, Attribute.END) != null;
        }

        /** Max-min fair rates under the current caps, repeated until the caps (which may refer to rates) settle. */
        private void computeRates() {
            Arrays.fill(caps, Double.POSITIVE_INFINITY);
            waterFill();
            for (int iteration = 0; iteration < MAX_RATE_ITERATIONS; iteration++) {
                deadline.check();
                boolean capped = false;
                for (int f = 0; f < count; f++) {
                    caps[f] = active[f] ? cap(f) : 0;
                    capped |= active[f] && caps[f] != Double.POSITIVE_INFINITY;
                }
                if (!capped && iteration == 0) {
                    // The same caps as the uncapped fill just done (it holds flows not running at 0): same rates.
                    return;
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
            Expression rateLimit = plan.attribute(f, Attribute.RATE);
            // A group's rate references are its common rate, which the water-filling enforces.
            if (rateLimit != null && group[f] < 0) {
                double limit = evaluate(rateLimit);
                if (!Double.isNaN(limit)) {
                    cap = Math.max(0, limit);
                }
            }
            Expression bound = plan.attribute(f, Attribute.TRANSFER);
            if (bound != null) {
                double allowed = evaluate(bound);
                double tolerance = EPSILON * Math.max(1, Math.abs(allowed));
                if (transferred[f] > allowed + tolerance) {
                    cap = 0; // ahead of its bound (t(g) - 99M at the start, say): it waits until the bound catches up
                } else if (transferred[f] >= allowed - tolerance) {
                    cap = Math.min(cap, Math.max(0, growth(bound)));
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
                    Expression bound = plan.attribute(f, Attribute.TRANSFER);
                    if (bound != null) {
                        // Below its bound and gaining on it, or held above it while the bound grows towards it.
                        double allowed = evaluate(bound);
                        double gap = allowed - transferred[f];
                        double closing = rate[f] - growth(bound);
                        // The tolerance cap() treats as at the bound: rounding noise is no event.
                        if (Math.abs(gap) > EPSILON * Math.max(1, Math.abs(allowed))
                                && Math.abs(closing) > EPSILON
                                && gap * closing > 0) {
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
            Expression expression = plan.attribute(f, attribute);
            return expression != null ? evaluate(expression) : absent;
        }

        private double evaluate(Expression expression) {
            if (expression instanceof Expression.Number number) {
                return number.value();
            }
            if (expression instanceof Expression.Reference reference) {
                int g = plan.target(reference.flow());
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
                return reference.attribute() == Attribute.TRANSFER ? rate[plan.target(reference.flow())] : 0;
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
    }
}
