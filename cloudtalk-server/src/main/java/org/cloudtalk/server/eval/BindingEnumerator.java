package org.cloudtalk.server.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;

/**
 * Lists a query's bindings (distinct values for non-shared variables) without the duplicates that interchangeable
 * variables create: {@code R1 = R2 = (a b c)} with {@code 0.0.0.0 -> R1 size 1G} and {@code 0.0.0.0 -> R2 size 1G}
 * gives {R1=a, R2=b} but not its mirror {R1=b, R2=a}, which every evaluator scores the same. The packet and exhaustive
 * evaluators both search these bindings.
 *
 * <p>Two variables are interchangeable when they come from one declaration (one candidate list, one sharing mode) and
 * swapping them maps the query onto itself: there is a one-to-one mapping of the flows such that each flow's image
 * runs between the swapped endpoints and has the same attributes, with references to flows mapped too (so the
 * reducers' {@code f1 0.0.0.0 -> x1 rate r(f2)}, {@code f2 x1 -> disk rate r(f1)} map onto the pair of {@code x2}).
 * Swapping twins then only renames flows: the flow estimator sees the same flows between the same hosts and gives the
 * same completion time, and distinctness is kept as the twins share one sharing mode. Swaps of twins compose, so
 * twins form classes whose every permutation maps the query onto itself; within a class only bindings whose values
 * rise in candidate order are listed (strictly for non-shared variables). That binding is the first of its class of
 * equivalent bindings in the plain enumeration order, so searches keep their tie-breaking.
 */
public final class BindingEnumerator {
    /** Most steps spent looking for one swap's mapping of flows; past it the variables are not taken as twins. */
    private static final int MAX_MATCH_STEPS = 10_000;

    private final QueryModel model;
    private final List<QueryModel.Variable> variables;
    private final Map<String, Integer> indexOf = new HashMap<>();
    /** For each variable, the index of the previous variable it is interchangeable with, or -1. */
    private final int[] previousTwin;

    public BindingEnumerator(QueryModel model) {
        this.model = model;
        this.variables = model.variables();
        for (int i = 0; i < variables.size(); i++) {
            indexOf.put(variables.get(i).name(), i);
        }
        this.previousTwin = new int[variables.size()];
        Arrays.fill(previousTwin, -1);
        Symmetry symmetry = new Symmetry(model);
        // The last member of each class of twins found so far: swaps compose, so one check per class suffices.
        List<Integer> lastOfClass = new ArrayList<>();
        for (int i = 0; i < variables.size(); i++) {
            QueryModel.Variable variable = variables.get(i);
            int found = -1;
            for (int c = 0; c < lastOfClass.size() && found < 0; c++) {
                QueryModel.Variable other = variables.get(lastOfClass.get(c));
                if (other.candidates() == variable.candidates() // one declaration: see QueryModel
                        && other.shared() == variable.shared()
                        && symmetry.swappable(other.name(), variable.name())) {
                    found = c;
                }
            }
            if (found >= 0) {
                previousTwin[i] = lastOfClass.get(found);
                lastOfClass.set(found, i);
            } else {
                lastOfClass.add(i);
            }
        }
    }

    /** Up to {@code limit} bindings in a fixed order (declaration order, candidates in listed order). */
    public List<Binding> first(int limit) {
        List<Binding> bindings = new ArrayList<>();
        if (limit > 0) {
            forEach(binding -> {
                bindings.add(binding);
                return bindings.size() < limit;
            });
        }
        return bindings;
    }

    /** Passes each binding, in the order of {@link #first}, to {@code sink} until it returns false. */
    public void forEach(Predicate<Binding> sink) {
        explore(0, new int[variables.size()], new HashSet<>(), sink);
    }

    /**
     * How many bindings there are at most: for each class of twins, the sets (multisets if shared) of its size drawn
     * from its candidates, ignoring distinctness between classes. An upper bound of the size of the search.
     */
    public double bound() {
        Map<Integer, Integer> classSize = new HashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            classSize.merge(root(i), 1, Integer::sum);
        }
        double size = 1;
        for (Map.Entry<Integer, Integer> entry : classSize.entrySet()) {
            QueryModel.Variable variable = variables.get(entry.getKey());
            int n = variable.candidates().size();
            int k = entry.getValue();
            size *= variable.shared() ? choose(n + k - 1, k) : choose(n, k);
        }
        return size;
    }

    /** Whether variable {@code index} is interchangeable with an earlier one (for tests and the docs' claims). */
    public boolean hasTwin(int index) {
        return previousTwin[index] >= 0;
    }

    private int root(int index) {
        int i = index;
        while (previousTwin[i] >= 0) {
            i = previousTwin[i];
        }
        return i;
    }

    private static double choose(int n, int k) {
        if (k > n) {
            return 0;
        }
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return Math.rint(result);
    }

    private boolean explore(int index, int[] chosen, Set<String> used, Predicate<Binding> sink) {
        if (index == variables.size()) {
            Map<String, String> values = new HashMap<>();
            for (int i = 0; i < chosen.length; i++) {
                values.put(
                        variables.get(i).name(), variables.get(i).candidates().get(chosen[i]));
            }
            return sink.test(new Binding(values));
        }
        QueryModel.Variable variable = variables.get(index);
        int twin = previousTwin[index];
        int from = twin < 0 ? 0 : chosen[twin] + (variable.shared() ? 0 : 1);
        for (int c = from; c < variable.candidates().size(); c++) {
            String candidate = variable.candidates().get(c);
            if (!variable.shared() && used.contains(candidate)
                    || !model.admits(variable.name(), candidate, peer -> valueSoFar(peer, index, chosen))) {
                continue;
            }
            chosen[index] = c;
            if (!variable.shared()) {
                used.add(candidate);
            }
            boolean more = explore(index + 1, chosen, used, sink);
            if (!variable.shared()) {
                used.remove(candidate);
            }
            if (!more) {
                return false;
            }
        }
        return true;
    }

    /** The value of variable {@code name} if it is among the first {@code bound} variables, otherwise null. */
    private String valueSoFar(String name, int bound, int[] chosen) {
        int index = indexOf.get(name);
        return index < bound ? variables.get(index).candidates().get(chosen[index]) : null;
    }

    /** Decides whether swapping two variables maps the query's flows onto themselves. */
    private static final class Symmetry {
        private final List<Flow> flows;
        private final String[] sources;
        private final String[] destinations;
        /** Flows by their endpoints' keys, "source destination". */
        private final Map<String, List<Integer>> byEndpoints = new HashMap<>();
        /** Flows by name, the first of each name as references resolve them. */
        private final Map<String, Integer> byName = new HashMap<>();
        /** Each endpoint's number of flows out and in, a cheap test before looking for a mapping. */
        private final Map<String, List<Integer>> degrees = new HashMap<>();

        Symmetry(QueryModel model) {
            this.flows = model.query().flows();
            this.sources = new String[flows.size()];
            this.destinations = new String[flows.size()];
            for (int f = 0; f < flows.size(); f++) {
                Flow flow = flows.get(f);
                sources[f] = QueryModel.key(flow.source());
                destinations[f] = QueryModel.key(flow.destination());
                byEndpoints
                        .computeIfAbsent(sources[f] + " " + destinations[f], unused -> new ArrayList<>())
                        .add(f);
                int index = f;
                flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), index));
                degree(sources[f], 0);
                degree(destinations[f], 1);
            }
        }

        private void degree(String endpoint, int direction) {
            List<Integer> counts = degrees.computeIfAbsent(endpoint, unused -> new ArrayList<>(List.of(0, 0)));
            counts.set(direction, counts.get(direction) + 1);
        }

        boolean swappable(String a, String b) {
            if (!degrees.getOrDefault(a, List.of(0, 0)).equals(degrees.getOrDefault(b, List.of(0, 0)))) {
                return false;
            }
            return match(a, b);
        }

        /**
         * Backtracking over the flows' images; partial mappings are checked as far as they go, the full one fully.
         * Iterative, not recursive: a query may have thousands of flows, one level each.
         */
        private boolean match(String a, String b) {
            int n = flows.size();
            List<List<Integer>> options = new ArrayList<>(n);
            for (int f = 0; f < n; f++) {
                options.add(byEndpoints.getOrDefault(
                        swap(sources[f], a, b) + " " + swap(destinations[f], a, b), List.of()));
            }
            int[] image = new int[n];
            Arrays.fill(image, -1);
            boolean[] taken = new boolean[n];
            int[] tried = new int[n + 1];
            int steps = 0;
            int f = 0;
            while (f >= 0) {
                if (f == n && complete(image)) {
                    return true;
                }
                boolean placed = false;
                while (f < n && tried[f] < options.get(f).size()) {
                    int g = options.get(f).get(tried[f]++);
                    if (++steps > MAX_MATCH_STEPS) {
                        return false;
                    }
                    if (!taken[g] && sameAttributes(flows.get(f), flows.get(g), image, false)) {
                        image[f] = g;
                        taken[g] = true;
                        placed = true;
                        break;
                    }
                }
                if (placed) {
                    tried[++f] = 0;
                } else if (--f >= 0) {
                    taken[image[f]] = false;
                    image[f] = -1;
                }
            }
            return false;
        }

        private boolean complete(int[] image) {
            for (int g = 0; g < flows.size(); g++) {
                if (!sameAttributes(flows.get(g), flows.get(image[g]), image, true)) {
                    return false;
                }
            }
            return true;
        }

        private static String swap(String endpoint, String a, String b) {
            return endpoint.equals(a) ? b : endpoint.equals(b) ? a : endpoint;
        }

        private boolean sameAttributes(Flow flow, Flow other, int[] image, boolean complete) {
            Map<Attribute, Expression> mine = flow.attributes();
            Map<Attribute, Expression> theirs = other.attributes();
            if (!mine.keySet().equals(theirs.keySet())) {
                return false;
            }
            for (Map.Entry<Attribute, Expression> entry : mine.entrySet()) {
                if (!same(entry.getValue(), theirs.get(entry.getKey()), image, complete)) {
                    return false;
                }
            }
            return true;
        }

        /** Whether {@code other} is {@code expression} with references mapped; unmapped ones pass unless complete. */
        private boolean same(Expression expression, Expression other, int[] image, boolean complete) {
            if (expression instanceof Expression.Number number) {
                return other instanceof Expression.Number number2
                        && Double.compare(number.value(), number2.value()) == 0;
            }
            if (expression instanceof Expression.Reference reference) {
                if (!(other instanceof Expression.Reference reference2)
                        || reference.attribute() != reference2.attribute()) {
                    return false;
                }
                int target = target(reference);
                int target2 = target(reference2);
                if (target < 0 || target2 < 0) {
                    return false; // not resolvable: assume nothing
                }
                return image[target] < 0 ? !complete : image[target] == target2;
            }
            Expression.Binary binary = (Expression.Binary) expression;
            return other instanceof Expression.Binary binary2
                    && binary.operator() == binary2.operator()
                    && same(binary.left(), binary2.left(), image, complete)
                    && same(binary.right(), binary2.right(), image, complete);
        }

        /** The flow a reference is to, found as {@link org.cloudtalk.lang.ast.Query#flow} finds it, or -1. */
        private int target(Expression.Reference reference) {
            if (reference.flow() instanceof FlowSelector.ByPosition byPosition) {
                int position = byPosition.position();
                return position >= 1 && position <= flows.size() ? position - 1 : -1;
            }
            return byName.getOrDefault(((FlowSelector.ByName) reference.flow()).name(), -1);
        }
    }
}
