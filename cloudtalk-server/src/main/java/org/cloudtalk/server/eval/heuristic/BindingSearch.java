package org.cloudtalk.server.eval.heuristic;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.CostLimitException;
import org.cloudtalk.server.eval.QueryModel;

/**
 * A binding that keeps the rules (distinct values for variables that are not shared, no flow turned into disk -> disk
 * or 0.0.0.0 -> disk), found by backtracking over the variables in a given order, each trying its values in a given
 * order of preference. A branch is cut as soon as the variables left cannot all get distinct admissible values (a
 * bipartite matching over what is left), so a query without a binding is refused at the root, not after trying
 * every binding; a search still longer than {@link #MAX_STEPS} stops with a {@link CostLimitException}.
 *
 * <p>Concurrency: one search per instance, on one thread.
 */
final class BindingSearch {
    /** Bindings extended at most: each step costs a matching over the variables left. */
    static final int MAX_STEPS = 20_000;

    private final QueryModel query;
    private final List<QueryModel.Variable> order;
    private final List<List<String>> preferences;
    private final Deadline deadline;
    private final Map<String, String> bound = new LinkedHashMap<>();
    private final Set<String> used = new HashSet<>();
    private int steps;

    /** @param preferences each variable's candidates, in {@code order}'s order, best first */
    BindingSearch(
            QueryModel query, List<QueryModel.Variable> order, List<List<String>> preferences, Deadline deadline) {
        this.query = query;
        this.order = order;
        this.preferences = preferences;
        this.deadline = deadline;
    }

    /** The first binding in preference order, or empty when the query has none. */
    Optional<Map<String, String>> find() {
        return extend(0) ? Optional.of(Map.copyOf(bound)) : Optional.empty();
    }

    /**
     * Whether the variables could all get values if only distinctness counted (the variables not shared distinct
     * values, each its own candidates), the disk rule aside: when they could and {@link #find} finds nothing, the disk
     * rule is what leaves the query without a binding.
     */
    boolean distinctValuesExist() {
        return matchable(0, preferences::get);
    }

    private boolean extend(int index) {
        if (index == order.size()) {
            return true;
        }
        if (++steps > MAX_STEPS) {
            throw new CostLimitException("no binding that keeps the disk rule was found in " + MAX_STEPS
                    + " steps of search; list fewer disk candidates, or ask the exhaustive evaluator");
        }
        deadline.check();
        if (!restCanBeBound(index)) {
            return false;
        }
        QueryModel.Variable variable = order.get(index);
        for (String value : preferences.get(index)) {
            if (!allowed(variable, value)) {
                continue;
            }
            bound.put(variable.name(), value);
            if (!variable.shared()) {
                used.add(value);
            }
            if (extend(index + 1)) {
                return true;
            }
            bound.remove(variable.name());
            if (!variable.shared()) {
                used.remove(value);
            }
        }
        return false;
    }

    private boolean allowed(QueryModel.Variable variable, String value) {
        return (variable.shared() || !used.contains(value)) && query.admits(variable.name(), value, bound::get);
    }

    /**
     * Whether the variables from {@code index} on can still all get values allowed by what is bound: each shared one
     * some value, the others distinct ones (augmenting paths). Necessary, not sufficient: the disk rule between two
     * variables left is checked only once one of them is bound.
     */
    private boolean restCanBeBound(int index) {
        return matchable(index, i -> preferences.get(i).stream()
                .filter(value -> allowed(order.get(i), value))
                .toList());
    }

    /**
     * Whether the variables from {@code from} on can all take one of their {@code values}: each shared one some value,
     * the others distinct ones (augmenting paths).
     */
    private boolean matchable(int from, IntFunction<List<String>> values) {
        Map<String, List<String>> valuesByName = new HashMap<>();
        Map<String, String> holderOf = new HashMap<>();
        for (int i = from; i < order.size(); i++) {
            QueryModel.Variable variable = order.get(i);
            List<String> own = values.apply(i);
            if (own.isEmpty()) {
                return false;
            }
            valuesByName.put(variable.name(), own);
            if (!variable.shared() && !augment(variable.name(), valuesByName, holderOf, new HashSet<>())) {
                return false;
            }
        }
        return true;
    }

    /** Gives {@code name} one of its allowed values, moving an earlier holder to another of its own if need be. */
    private static boolean augment(
            String name, Map<String, List<String>> allowedValues, Map<String, String> holderOf, Set<String> visited) {
        for (String value : allowedValues.get(name)) {
            if (!visited.add(value)) {
                continue;
            }
            String holder = holderOf.get(value);
            if (holder == null || augment(holder, allowedValues, holderOf, visited)) {
                holderOf.put(value, name);
                return true;
            }
        }
        return false;
    }
}
