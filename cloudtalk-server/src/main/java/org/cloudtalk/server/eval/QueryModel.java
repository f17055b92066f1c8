package org.cloudtalk.server.eval;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * A validated query arranged for evaluation: its variables with candidates, and for each variable the endpoints that
 * send to it ({@code incoming}) and that it sends to ({@code outgoing}). Endpoints are keyed by their canonical text
 * (an address, {@code disk}, {@code 0.0.0.0}, or a variable's name).
 */
public final class QueryModel {
    public static final String DISK = "disk";
    public static final String UNKNOWN_SOURCE = "0.0.0.0";

    /**
     * A variable: candidates in declaration order, the same list instance for every variable of one declaration;
     * {@code shared} ones may take a value another variable has.
     */
    public record Variable(String name, List<String> candidates, boolean shared) {
        public Variable {
            requireNonNull(name, "name is null");
            candidates = List.copyOf(candidates);
        }
    }

    private final Query query;
    private final List<Variable> variables = new ArrayList<>();
    private final Map<String, Variable> byName = new HashMap<>();
    private final Map<String, Set<String>> incoming = new HashMap<>();
    private final Map<String, Set<String>> outgoing = new HashMap<>();

    public QueryModel(Query query) {
        this.query = requireNonNull(query, "query is null");
        for (VariableDeclaration declaration : query.declarations()) {
            // One immutable, null-free list per declaration: List.copyOf in Variable then returns this very
            // instance, so the variables of a declaration share it and evaluators can key work on it by identity.
            List<String> candidates = List.copyOf(
                    declaration.candidates().stream().map(QueryPrinter::print).toList());
            for (Identifier name : declaration.names()) {
                Variable variable = new Variable(name.value(), candidates, declaration.shared());
                variables.add(variable);
                byName.put(variable.name(), variable);
                incoming.put(variable.name(), new LinkedHashSet<>());
                outgoing.put(variable.name(), new LinkedHashSet<>());
            }
        }
        for (Flow flow : query.flows()) {
            String source = key(flow.source());
            String destination = key(flow.destination());
            if (incoming.containsKey(destination)) {
                incoming.get(destination).add(source);
            }
            if (outgoing.containsKey(source)) {
                outgoing.get(source).add(destination);
            }
        }
    }

    public Query query() {
        return query;
    }

    public List<Variable> variables() {
        return List.copyOf(variables);
    }

    public Variable variable(String name) {
        return byName.get(name);
    }

    public boolean isVariable(String key) {
        return byName.containsKey(key);
    }

    /** Endpoints with a flow into {@code variable} ({@code to[v]} in Listing 1). */
    public Set<String> incoming(String variable) {
        return Set.copyOf(incoming.get(variable));
    }

    /** Endpoints {@code variable} has a flow to ({@code from[v]} in Listing 1). */
    public Set<String> outgoing(String variable) {
        return Set.copyOf(outgoing.get(variable));
    }

    public static String key(Endpoint endpoint) {
        return QueryPrinter.print(endpoint);
    }

    /** Where an endpoint is under a binding: an address, {@link #DISK} or {@link #UNKNOWN_SOURCE}. */
    public String resolve(Endpoint endpoint, Binding binding) {
        String key = key(endpoint);
        return isVariable(key) ? binding.valueOf(key) : key;
    }
}
