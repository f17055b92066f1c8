package org.cloudtalk.server.eval;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
    /** Why a binding may not give a variable the value {@code disk} ({@link #admits}). */
    public static final String DISK_RULE =
            "a binding may not turn a flow into disk -> disk or 0.0.0.0 -> disk, which the language refuses";

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
    private final List<DiskRule> diskRules = new ArrayList<>();
    /** Variables that may not take {@code disk}: a flow joins them to {@code disk} or comes from the unknown source. */
    private final Set<String> neverDisk = new HashSet<>();
    /** For each variable, the variables a flow joins it to: both may not take {@code disk}. */
    private final Map<String, Set<String>> diskPeers = new HashMap<>();

    /**
     * A flow that a binding could turn into one the language refuses as written ({@code disk -> disk}, {@code 0.0.0.0
     * -> disk}): the variables at its ends, null for an end that is {@code disk} or the unknown source. The binding
     * breaks the rule when both ends are {@code disk}, a null end counting as one.
     */
    public record DiskRule(String source, String destination) {}

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
            boolean sourceVariable = byName.containsKey(source);
            boolean destinationVariable = byName.containsKey(destination);
            if (sourceVariable && destinationVariable) {
                diskRules.add(new DiskRule(source, destination));
            } else if (destinationVariable && (source.equals(DISK) || source.equals(UNKNOWN_SOURCE))) {
                diskRules.add(new DiskRule(null, destination));
            } else if (sourceVariable && destination.equals(DISK)) {
                diskRules.add(new DiskRule(source, null));
            }
        }
        for (DiskRule rule : diskRules) {
            if (rule.source() == null || rule.destination() == null) {
                neverDisk.add(rule.source() == null ? rule.destination() : rule.source());
            } else {
                diskPeers
                        .computeIfAbsent(rule.source(), unused -> new HashSet<>())
                        .add(rule.destination());
                diskPeers
                        .computeIfAbsent(rule.destination(), unused -> new HashSet<>())
                        .add(rule.source());
            }
        }
    }

    /** The flows a binding could turn into {@code disk -> disk} or {@code 0.0.0.0 -> disk} ({@link #admits}). */
    public List<DiskRule> diskRules() {
        return List.copyOf(diskRules);
    }

    /**
     * Whether {@code variable} may take {@code value} while other variables take what {@code boundValues} says (null:
     * not bound yet). A binding may not turn a flow into one the language refuses as written: {@code disk -> disk} or
     * {@code 0.0.0.0 -> disk}; nor may it take {@code disk} from a peer whose only candidate that is.
     */
    public boolean admits(String variable, String value, Function<String, String> boundValues) {
        if (!value.equals(DISK)) {
            return true;
        }
        if (neverDisk.contains(variable)) {
            return false;
        }
        for (String peer : diskPeers.getOrDefault(variable, Set.of())) {
            String bound = boundValues.apply(peer);
            // An unbound peer must keep a value other than disk, or taking disk here would leave it none.
            if (DISK.equals(bound)
                    || bound == null && byName.get(peer).candidates().stream().allMatch(DISK::equals)) {
                return false;
            }
        }
        return true;
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
