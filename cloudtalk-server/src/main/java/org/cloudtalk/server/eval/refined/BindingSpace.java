package org.cloudtalk.server.eval.refined;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.server.eval.QueryModel;

/**
 * A query's bindings as arrays, so a search can try thousands of moves without building maps: every candidate value
 * and literal endpoint has an id, a binding is each variable's value id (variables in declaration order).
 *
 * <p>Not thread-safe (a scratch array checks distinctness): one per search.
 */
final class BindingSpace {
    private final List<QueryModel.Variable> variables;
    private final List<String> values = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final int[][] candidates;
    private final boolean[][] allowed;
    private final boolean[] shared;
    private final int[] seen;
    /** Flows joining two variables, or a variable to {@code disk} or from the unknown source: {@link #admissible}. */
    private final int[][] diskChecks;

    private int stamp;

    BindingSpace(QueryModel query) {
        variables = query.variables();
        candidates = new int[variables.size()][];
        shared = new boolean[variables.size()];
        for (int v = 0; v < variables.size(); v++) {
            QueryModel.Variable variable = variables.get(v);
            candidates[v] = variable.candidates().stream().mapToInt(this::id).toArray();
            shared[v] = variable.shared();
        }
        for (Flow flow : query.query().flows()) {
            for (String key : new String[] {QueryModel.key(flow.source()), QueryModel.key(flow.destination())}) {
                if (!query.isVariable(key)) {
                    id(key);
                }
            }
        }
        allowed = new boolean[variables.size()][values.size()];
        for (int v = 0; v < variables.size(); v++) {
            for (int c : candidates[v]) {
                allowed[v][c] = true;
            }
        }
        seen = new int[values.size()];
        diskChecks = diskChecks(query);
    }

    /** Each of the query's {@link QueryModel.DiskRule}s as variable indices, -1 for a disk or unknown-source end. */
    private int[][] diskChecks(QueryModel query) {
        Map<String, Integer> index = new HashMap<>();
        for (int v = 0; v < variables.size(); v++) {
            index.put(variables.get(v).name(), v);
        }
        return query.diskRules().stream()
                .map(rule -> new int[] {
                    rule.source() == null ? -1 : index.get(rule.source()),
                    rule.destination() == null ? -1 : index.get(rule.destination())
                })
                .toArray(int[][]::new);
    }

    private int id(String value) {
        return ids.computeIfAbsent(value, unused -> {
            values.add(value);
            return values.size() - 1;
        });
    }

    int variableCount() {
        return variables.size();
    }

    int valueCount() {
        return values.size();
    }

    String value(int id) {
        return values.get(id);
    }

    /** The id of a literal endpoint or candidate value. */
    int idOf(String value) {
        return ids.get(value);
    }

    int[] candidates(int variable) {
        return candidates[variable];
    }

    int[] of(Map<String, String> binding) {
        int[] bound = new int[variables.size()];
        for (int v = 0; v < bound.length; v++) {
            bound[v] = ids.get(binding.get(variables.get(v).name()));
        }
        return bound;
    }

    Map<String, String> toMap(int[] binding) {
        Map<String, String> map = new HashMap<>();
        for (int v = 0; v < binding.length; v++) {
            map.put(variables.get(v).name(), values.get(binding[v]));
        }
        return map;
    }

    /**
     * {@code variable} takes {@code value}; a non-shared variable holding it takes the old value instead. Null when
     * that holder cannot take the old value: not a legal move.
     */
    int[] move(int[] binding, int variable, int value) {
        int[] moved = Arrays.copyOf(binding, binding.length);
        int old = moved[variable];
        moved[variable] = value;
        if (!shared[variable]) {
            for (int other = 0; other < moved.length; other++) {
                if (other != variable && !shared[other] && moved[other] == value) {
                    if (!allowed[other][old]) {
                        return null;
                    }
                    moved[other] = old;
                }
            }
        }
        return moved;
    }

    /** Whether no flow goes from disk to disk or from the unknown source to disk ({@link QueryModel#admits}). */
    boolean admissible(int[] binding) {
        Integer disk = ids.get(QueryModel.DISK);
        if (disk == null) {
            return true;
        }
        for (int[] check : diskChecks) {
            boolean sourceDisk = check[0] < 0 || binding[check[0]] == disk;
            boolean destinationDisk = check[1] < 0 || binding[check[1]] == disk;
            if (sourceDisk && destinationDisk) {
                return false;
            }
        }
        return true;
    }

    /** Whether the non-shared variables all have different values. */
    boolean distinct(int[] binding) {
        stamp++;
        for (int v = 0; v < binding.length; v++) {
            if (!shared[v]) {
                if (seen[binding[v]] == stamp) {
                    return false;
                }
                seen[binding[v]] = stamp;
            }
        }
        return true;
    }
}
