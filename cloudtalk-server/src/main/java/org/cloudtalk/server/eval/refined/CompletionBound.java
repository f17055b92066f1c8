package org.cloudtalk.server.eval.refined;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.HostResources;
import org.cloudtalk.server.state.ClusterState;

/**
 * A lower bound on when a binding's task can complete, far cheaper than the flow estimator: every byte of the flows
 * whose size is known up front must cross each resource the flow uses, at no more than what that resource has
 * available, so the task takes at least the busiest resource's bytes over its available rate. The estimator's answer
 * is never below it (rates, transfer bounds and starts only slow flows down), so a binding whose bound is no better
 * than the best found need not be estimated. With a topology, the uplinks a flow crosses are among its resources, as
 * in the estimator: without them the bound would stay far below estimates that uplinks slow, and prune nothing.
 *
 * <p>Not thread-safe (scratch arrays): one per search.
 */
final class CompletionBound {
    private static final int KINDS = HostResources.Kind.values().length;
    private static final int UNSEEN = -2;

    /** Bytes/s available on each value's resources: index {@code value * KINDS + kind}. */
    private final double[] available;
    /** For each flow of known size: where its endpoints are (a variable, or a literal's value id), and its bytes. */
    private final int[] sourceVariable;

    private final int[] sourceValue;
    private final int[] destinationVariable;
    private final int[] destinationValue;
    private final double[] bytes;
    private final BindingSpace space;
    /** Which value ids are {@code disk} and the unknown source: the bound compares ids, not texts. */
    private final boolean[] disk;

    private final boolean[] unknown;
    /** For each variable, each of its candidates' {@link #atValue}. */
    private final double[][] atValues;
    /** Whether a variable's {@link #atValue} bounds every binding giving it that value from below. */
    private final boolean[] boundsBindings;
    /** Groups of non-shared variables over one candidate list (one declaration), which take distinct values. */
    private final List<int[]> distinctGroups = new ArrayList<>();
    // Scratch: bytes on each resource while computing one bound, and which entries to clear after.
    private final double[] load;
    private final int[] touched;
    /** The estimator's view of the uplinks, when there is a topology. */
    private final FlowEstimator.Prepared uplinks;
    /**
     * With uplinks: each value's host in {@link #uplinks}' numbering, registered there when first needed (a search
     * over many candidates meets few of them), {@link #UNSEEN} until then.
     */
    private final int[] hostNumber;
    // Scratch for uplinks, in the estimator's numbering of resources: bytes on each, which to clear, one flow's path.
    private double[] uplinkLoad;
    private final int[] uplinkTouched;
    private final int[] crossed = new int[FlowEstimator.MAX_UPLINKS];
    /** No binding finishes sooner than the uplinks that every binding's flows cross need (0 without uplinks). */
    private final double uplinkFloor;

    /** A bound over the hosts' links and disks only (a full-bisection core). */
    CompletionBound(QueryModel query, BindingSpace space, ClusterState state) {
        this(query, space, state, new FlowEstimator().prepare(query, state));
    }

    /** A bound over the resources {@code estimates} shares: the hosts', and with a topology the uplinks. */
    CompletionBound(QueryModel query, BindingSpace space, ClusterState state, FlowEstimator.Prepared estimates) {
        this.space = space;
        available = new double[space.valueCount() * KINDS];
        disk = new boolean[space.valueCount()];
        unknown = new boolean[space.valueCount()];
        for (int value = 0; value < space.valueCount(); value++) {
            disk[value] = space.value(value).equals(QueryModel.DISK);
            unknown[value] = space.value(value).equals(QueryModel.UNKNOWN_SOURCE);
            for (HostResources.Kind kind : HostResources.Kind.values()) {
                available[value * KINDS + kind.ordinal()] = HostResources.available(state, space.value(value), kind);
            }
        }
        List<Flow> all = query.query().flows();
        Map<String, Flow> byName = new HashMap<>();
        all.forEach(flow -> flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), flow)));
        List<Flow> sized = new ArrayList<>();
        List<Double> sizes = new ArrayList<>();
        for (Flow flow : all) {
            double size = constantSize(flow, all, byName, 0);
            if (size > 0) {
                sized.add(flow);
                sizes.add(size);
            }
        }
        Map<String, Integer> variableIndex = new HashMap<>();
        List<QueryModel.Variable> variables = query.variables();
        for (int v = 0; v < variables.size(); v++) {
            variableIndex.put(variables.get(v).name(), v);
        }
        int count = sized.size();
        sourceVariable = new int[count];
        sourceValue = new int[count];
        destinationVariable = new int[count];
        destinationValue = new int[count];
        bytes = new double[count];
        for (int f = 0; f < count; f++) {
            String source = QueryModel.key(sized.get(f).source());
            String destination = QueryModel.key(sized.get(f).destination());
            sourceVariable[f] = variableIndex.getOrDefault(source, -1);
            sourceValue[f] = sourceVariable[f] < 0 ? space.idOf(source) : -1;
            destinationVariable[f] = variableIndex.getOrDefault(destination, -1);
            destinationValue[f] = destinationVariable[f] < 0 ? space.idOf(destination) : -1;
            bytes[f] = sizes.get(f);
        }
        load = new double[available.length];
        touched = new int[2 * count];
        uplinks = estimates;
        hostNumber = new int[estimates.hasUplinks() ? space.valueCount() : 0];
        Arrays.fill(hostNumber, UNSEEN);
        uplinkLoad = new double[0];
        uplinkTouched = new int[estimates.hasUplinks() ? FlowEstimator.MAX_UPLINKS * count : 0];
        uplinkFloor = hostNumber.length > 0 ? uplinkFloor() : 0;
        boundsBindings = boundsBindings(variables);
        atValues = new double[variables.size()][];
        Map<List<String>, List<Integer>> declarations = new IdentityHashMap<>();
        for (int v = 0; v < variables.size(); v++) {
            int[] candidates = space.candidates(v);
            atValues[v] = new double[candidates.length];
            for (int i = 0; i < candidates.length; i++) {
                atValues[v][i] = atValue(v, candidates[i]);
            }
            if (!variables.get(v).shared()) {
                declarations
                        .computeIfAbsent(variables.get(v).candidates(), unused -> new ArrayList<>())
                        .add(v);
            }
        }
        declarations
                .values()
                .forEach(group -> distinctGroups.add(
                        group.stream().mapToInt(Integer::intValue).toArray()));
    }

    /**
     * A variable's {@link #atValue} assumes its flows' other variable ends are other hosts, and neither the disk nor
     * the unknown source: true when it and those variables are all non-shared (so never on one host) and no
     * candidate is the disk or the unknown source.
     */
    private boolean[] boundsBindings(List<QueryModel.Variable> variables) {
        boolean[] result = new boolean[variables.size()];
        for (int v = 0; v < result.length; v++) {
            result[v] = !variables.get(v).shared();
        }
        for (int f = 0; f < bytes.length; f++) {
            int source = sourceVariable[f];
            int destination = destinationVariable[f];
            if (source >= 0 && destination >= 0 && source != destination) {
                boolean apart = result[source] && result[destination];
                result[source] &= apart;
                result[destination] &= apart;
            }
        }
        for (int v = 0; v < result.length; v++) {
            for (int candidate : space.candidates(v)) {
                if (disk[candidate] || unknown[candidate]) {
                    Arrays.fill(result, false);
                }
            }
        }
        return result;
    }

    /** {@link #atValue} of the variable's {@code index}-th candidate, computed once. */
    double atCandidate(int variable, int index) {
        return atValues[variable][index];
    }

    /**
     * Whether {@link #atCandidate} is below every bound of a binding giving the variable that candidate, so that a
     * search may skip those bindings when it is no better than what it has.
     */
    boolean boundsBindings(int variable) {
        return boundsBindings[variable];
    }

    /**
     * A lower bound on every binding's bound, so on its completion: each variable needs at least its best
     * candidate's {@link #atValue}, and the k variables of a group of distinct ones at least the k-th best of their
     * candidates' (a candidate counting with the variable it suits best), and with a topology the uplinks every
     * binding's flows cross ({@link #uplinkFloor}). 0 when nothing is known.
     */
    double ofAnyBinding() {
        double floor = uplinkFloor;
        for (int v = 0; v < atValues.length; v++) {
            if (boundsBindings[v]) {
                floor = Math.max(floor, Arrays.stream(atValues[v]).min().orElse(0));
            }
        }
        for (int[] group : distinctGroups) {
            int candidates = atValues[group[0]].length;
            if (group.length < 2 || group.length > candidates) {
                continue;
            }
            double[] best = new double[candidates];
            Arrays.fill(best, Double.POSITIVE_INFINITY);
            boolean bounds = true;
            for (int v : group) {
                bounds &= boundsBindings[v];
                for (int i = 0; i < candidates; i++) {
                    best[i] = Math.min(best[i], atValues[v][i]);
                }
            }
            if (bounds) {
                Arrays.sort(best);
                floor = Math.max(floor, best[group.length - 1]);
            }
        }
        return floor;
    }

    /**
     * The busiest uplink's bytes over its rate, counting for each flow of known size with at most one variable end
     * the uplinks it crosses whatever that variable's value (as when the fixed end's rack holds no candidate, or all
     * the candidates share a rack): every binding's flows cross them.
     */
    private double uplinkFloor() {
        double[] sure = new double[0];
        int[] common = new int[FlowEstimator.MAX_UPLINKS];
        int[] path = new int[FlowEstimator.MAX_UPLINKS];
        for (int f = 0; f < bytes.length; f++) {
            if (sourceVariable[f] >= 0 && destinationVariable[f] >= 0) {
                continue; // both ends vary: left to the per-binding bound
            }
            int[] sources = sourceVariable[f] >= 0 ? space.candidates(sourceVariable[f]) : new int[] {sourceValue[f]};
            int[] destinations = destinationVariable[f] >= 0
                    ? space.candidates(destinationVariable[f])
                    : new int[] {destinationValue[f]};
            int shared = -1; // how many uplinks every value so far crosses, in common[]; -1 before the first
            for (int source : sources) {
                for (int destination : destinations) {
                    int crossing = uplinksBetween(source, destination, path);
                    sure = covering(sure);
                    shared = shared < 0 ? copy(path, crossing, common) : intersect(common, shared, path, crossing);
                }
            }
            for (int i = 0; i < shared; i++) {
                sure[common[i]] += bytes[f];
            }
        }
        double floor = 0;
        for (int uplink = 0; uplink < sure.length; uplink++) {
            if (sure[uplink] > 0) {
                double rate = uplinks.available(uplink);
                floor = Math.max(floor, rate > 0 ? sure[uplink] / rate : Double.POSITIVE_INFINITY);
            }
        }
        return floor;
    }

    /** The uplinks a flow between two values crosses, into {@code path}; none unless it is a network flow. */
    private int uplinksBetween(int source, int destination, int[] path) {
        if (disk[source] || disk[destination] || source == destination) {
            return 0;
        }
        return uplinks.uplinks(unknown[source] ? -1 : hostOf(source), hostOf(destination), path, 0);
    }

    /** A value's host in {@link #uplinks}' numbering, registering it the first time. */
    private int hostOf(int value) {
        if (hostNumber[value] == UNSEEN) {
            hostNumber[value] = uplinks.host(space.value(value));
        }
        return hostNumber[value];
    }

    /** {@code loads} grown to cover every resource {@link #uplinks} has numbered (hosts it met since then brought uplinks). */
    private double[] covering(double[] loads) {
        return loads.length < uplinks.resourceCount() ? Arrays.copyOf(loads, uplinks.resourceCount()) : loads;
    }

    private static int copy(int[] from, int length, int[] into) {
        System.arraycopy(from, 0, into, 0, length);
        return length;
    }

    /** Keeps in {@code common} those of its first {@code length} that {@code path} has too; returns how many. */
    private static int intersect(int[] common, int length, int[] path, int pathLength) {
        int kept = 0;
        for (int i = 0; i < length; i++) {
            for (int j = 0; j < pathLength; j++) {
                if (common[i] == path[j]) {
                    common[kept++] = common[i];
                    break;
                }
            }
        }
        return kept;
    }

    /** Seconds; 0 when no flow's size is known, +∞ when a flow must cross a resource with nothing available. */
    double of(int[] binding) {
        int used = 0;
        int usedUplinks = 0;
        for (int f = 0; f < bytes.length; f++) {
            int source = sourceVariable[f] < 0 ? sourceValue[f] : binding[sourceVariable[f]];
            int destination = destinationVariable[f] < 0 ? destinationValue[f] : binding[destinationVariable[f]];
            List<HostResources.Use> uses =
                    HostResources.uses(disk[source], disk[destination], source == destination, unknown[source]);
            for (int u = 0; u < uses.size(); u++) {
                HostResources.Use use = uses.get(u);
                int resource = (use.onSource() ? source : destination) * KINDS
                        + use.kind().ordinal();
                if (load[resource] == 0) {
                    touched[used++] = resource;
                }
                load[resource] += bytes[f];
            }
            if (hostNumber.length > 0) {
                int crossing = uplinksBetween(source, destination, crossed);
                uplinkLoad = covering(uplinkLoad);
                for (int i = 0; i < crossing; i++) {
                    int uplink = crossed[i];
                    if (uplinkLoad[uplink] == 0) {
                        uplinkTouched[usedUplinks++] = uplink;
                    }
                    uplinkLoad[uplink] += bytes[f];
                }
            }
        }
        double bound = 0;
        for (int i = 0; i < used; i++) {
            int resource = touched[i];
            double rate = available[resource];
            bound = Math.max(bound, rate > 0 ? load[resource] / rate : Double.POSITIVE_INFINITY);
            load[resource] = 0;
        }
        for (int i = 0; i < usedUplinks; i++) {
            int uplink = uplinkTouched[i];
            double rate = uplinks.available(uplink);
            bound = Math.max(bound, rate > 0 ? uplinkLoad[uplink] / rate : Double.POSITIVE_INFINITY);
            uplinkLoad[uplink] = 0;
        }
        return bound;
    }

    /**
     * How long {@code value}'s own resources would take to carry {@code variable}'s flows of known size if it took
     * that value, whatever the other variables are bound to: a way to rank a variable's candidates, not a bound on
     * the task.
     */
    double atValue(int variable, int value) {
        double[] kinds = new double[KINDS];
        for (int f = 0; f < bytes.length; f++) {
            boolean isSource = sourceVariable[f] == variable;
            boolean isDestination = destinationVariable[f] == variable;
            if (!isSource && !isDestination) {
                continue;
            }
            // The other end is a literal's value, or for another variable a host that is none of the values.
            int source = isSource ? value : sourceValue[f];
            int destination = isDestination ? value : destinationValue[f];
            List<HostResources.Use> uses = HostResources.uses(
                    source >= 0 && disk[source],
                    destination >= 0 && disk[destination],
                    source == destination,
                    source >= 0 && unknown[source]);
            for (int u = 0; u < uses.size(); u++) {
                HostResources.Use use = uses.get(u);
                if (use.onSource() ? isSource : isDestination) {
                    kinds[use.kind().ordinal()] += bytes[f];
                }
            }
        }
        double time = 0;
        for (int kind = 0; kind < KINDS; kind++) {
            if (kinds[kind] > 0) {
                double rate = available[value * KINDS + kind];
                time = Math.max(time, rate > 0 ? kinds[kind] / rate : Double.POSITIVE_INFINITY);
            }
        }
        return time;
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
