package org.cloudtalk.server.eval.packet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.print.QueryPrinter;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;

/**
 * Lists a query's bindings (distinct values for non-shared variables) without the duplicates that interchangeable
 * variables create: {@code R1 = R2 = (a b c)} with {@code 0.0.0.0 -> R1 size 1G} and {@code 0.0.0.0 -> R2 size 1G}
 * gives {R1=a, R2=b} but not its mirror {R1=b, R2=a}, which any simulation scores the same.
 *
 * <p>Two variables are interchangeable when they share one candidate list (one declaration) and sharing mode, and
 * swapping them maps the query onto itself. This is checked conservatively: each of their flows must run to or from a
 * literal host with attributes free of references, and no flow may refer to it; then their multisets of flows
 * (direction, other end, attributes) must be equal. Among interchangeable variables only bindings whose values rise in
 * candidate order are listed (strictly for distinct variables), one per class of equivalent bindings.
 */
final class BindingEnumerator {
    private final List<QueryModel.Variable> variables;
    /** For each variable, the index of the previous variable it is interchangeable with, or -1. */
    private final int[] previousTwin;

    BindingEnumerator(QueryModel model) {
        this.variables = model.variables();
        this.previousTwin = new int[variables.size()];
        Set<Integer> referenced = new HashSet<>();
        for (Flow flow : model.query().flows()) {
            flow.attributes().values().forEach(expression -> references(expression, model, referenced));
        }
        List<Optional<List<String>>> roles = variables.stream()
                .map(variable -> role(model, variable.name(), referenced))
                .toList();
        for (int i = 0; i < variables.size(); i++) {
            previousTwin[i] = -1;
            for (int j = i - 1; j >= 0 && roles.get(i).isPresent(); j--) {
                QueryModel.Variable a = variables.get(i);
                QueryModel.Variable b = variables.get(j);
                if (a.candidates() == b.candidates() // one declaration: see QueryModel
                        && a.shared() == b.shared()
                        && roles.get(i).equals(roles.get(j))) {
                    previousTwin[i] = j;
                    break;
                }
            }
        }
    }

    /** Up to {@code limit} bindings in a fixed order (declaration order, candidates in listed order). */
    List<Binding> first(int limit) {
        List<Binding> bindings = new ArrayList<>();
        explore(0, new int[variables.size()], new HashSet<>(), bindings, limit);
        return bindings;
    }

    /** Whether variable {@code index} is interchangeable with an earlier one (for tests and the docs' claims). */
    boolean hasTwin(int index) {
        return previousTwin[index] >= 0;
    }

    private void explore(int index, int[] chosen, Set<String> used, List<Binding> out, int limit) {
        if (out.size() == limit) {
            return;
        }
        if (index == variables.size()) {
            Map<String, String> values = new HashMap<>();
            for (int i = 0; i < chosen.length; i++) {
                values.put(
                        variables.get(i).name(), variables.get(i).candidates().get(chosen[i]));
            }
            out.add(new Binding(values));
            return;
        }
        QueryModel.Variable variable = variables.get(index);
        int twin = previousTwin[index];
        int from = twin < 0 ? 0 : chosen[twin] + (variable.shared() ? 0 : 1);
        for (int c = from; c < variable.candidates().size() && out.size() < limit; c++) {
            String candidate = variable.candidates().get(c);
            if (!variable.shared() && used.contains(candidate)) {
                continue;
            }
            chosen[index] = c;
            if (!variable.shared()) {
                used.add(candidate);
            }
            explore(index + 1, chosen, used, out, limit);
            if (!variable.shared()) {
                used.remove(candidate);
            }
        }
    }

    /** The variable's flows as a sorted list of (direction, other end, attributes), or empty if not provably plain. */
    private static Optional<List<String>> role(QueryModel model, String variable, Set<Integer> referenced) {
        List<String> role = new ArrayList<>();
        for (Flow flow : model.query().flows()) {
            String source = QueryModel.key(flow.source());
            String destination = QueryModel.key(flow.destination());
            boolean out = source.equals(variable);
            if (!out && !destination.equals(variable)) {
                continue;
            }
            String other = out ? destination : source;
            Set<Integer> own = new HashSet<>();
            flow.attributes().values().forEach(expression -> references(expression, model, own));
            if (model.isVariable(other) || !own.isEmpty() || referenced.contains(flow.position())) {
                return Optional.empty();
            }
            role.add((out ? "-> " : "<- ") + other + " " + attributes(flow));
        }
        role.sort(null);
        return Optional.of(role);
    }

    private static String attributes(Flow flow) {
        StringBuilder text = new StringBuilder();
        flow.attributes().forEach((attribute, expression) -> text.append(attribute.keyword())
                .append(' ')
                .append(QueryPrinter.print(expression))
                .append(' '));
        return text.toString();
    }

    private static void references(Expression expression, QueryModel model, Set<Integer> positions) {
        if (expression instanceof Expression.Reference reference) {
            model.query().flow(reference.flow()).ifPresent(flow -> positions.add(flow.position()));
        } else if (expression instanceof Expression.Binary binary) {
            references(binary.left(), model, positions);
            references(binary.right(), model, positions);
        }
    }
}
