package org.cloudtalk.lang.validate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryError;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Dimension;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * Semantic checks on a parsed (or built) query. Collects every problem rather than stopping at the first, so a user
 * fixes a query in one round.
 */
public final class QueryValidator {
    private final Query query;
    private final FlowResolver flows;
    private final List<QueryError> errors = new ArrayList<>();

    private QueryValidator(Query query) {
        this.query = query;
        this.flows = new FlowResolver(query);
    }

    /** Throws a {@link QueryException} listing every problem, ordered by position. */
    public static void validate(Query query) {
        List<QueryError> errors = check(query);
        if (!errors.isEmpty()) {
            throw new QueryException(errors);
        }
    }

    /** Every problem, ordered by position; empty for a valid query. */
    public static List<QueryError> check(Query query) {
        QueryValidator validator = new QueryValidator(query);
        if (query.declarations().isEmpty() && query.flows().isEmpty()) {
            // Nothing to bind and nothing to estimate: an answer would look like success and say nothing.
            validator.error(
                    ErrorCode.EMPTY_QUERY,
                    Span.at(1, 1),
                    "the query is empty: declare variables with their candidates and describe the flows");
        }
        validator.checkDeclarations();
        validator.learnStaticValues();
        validator.checkFlows();
        DependencyCheck.check(query, validator.flows, validator.errors);
        validator.errors.sort(
                Comparator.comparingInt((QueryError error) -> error.span().line())
                        .thenComparingInt(error -> error.span().column()));
        return List.copyOf(validator.errors);
    }

    private void checkDeclarations() {
        Map<String, Identifier> declared = new HashMap<>();
        for (VariableDeclaration declaration : query.declarations()) {
            for (Identifier name : declaration.names()) {
                Identifier earlier = declared.putIfAbsent(name.value(), name);
                if (earlier != null) {
                    error(
                            ErrorCode.DUPLICATE_VARIABLE,
                            name.span(),
                            "variable '" + name + "' is already declared" + at(earlier.span()));
                }
            }
            if (declaration.candidates().isEmpty()) {
                error(
                        ErrorCode.EMPTY_CANDIDATES,
                        declaration.span(),
                        "variable '" + declaration.names().get(0) + "' has no candidate values");
            }
            // Canonical text identifies an endpoint regardless of where it was written.
            Set<String> seen = new HashSet<>();
            for (Endpoint candidate : declaration.candidates()) {
                if (candidate instanceof Endpoint.UnknownSource) {
                    error(
                            ErrorCode.INVALID_CANDIDATE,
                            candidate.span(),
                            "0.0.0.0 (the unknown source) cannot be a candidate value");
                } else if (!seen.add(QueryPrinter.print(candidate))) {
                    error(
                            ErrorCode.DUPLICATE_CANDIDATE,
                            candidate.span(),
                            "candidate " + describe(candidate) + " is listed twice for '"
                                    + declaration.names().get(0) + "'");
                }
            }
        }
    }

    private void checkFlows() {
        Map<String, VariableDeclaration> variables = query.variables();
        Map<String, Flow> flowsByName = new HashMap<>();
        for (Flow flow : query.flows()) {
            flow.name().ifPresent(name -> {
                Flow earlier = flowsByName.putIfAbsent(name.value(), flow);
                if (earlier != null) {
                    error(
                            ErrorCode.DUPLICATE_FLOW,
                            name.span(),
                            "flow '" + name + "' is already defined"
                                    + at(earlier.name().orElseThrow().span()));
                }
            });
            checkEndpoint(flow.source(), variables);
            checkEndpoint(flow.destination(), variables);
            checkEndpointPair(flow);
            flow.attributes().forEach((attribute, value) -> checkValue(flow, attribute, value));
            checkEndNotBeforeStart(flow);
        }
    }

    /** A flow cannot end before it starts: checked where both are known before the flows run (an absent start is 0). */
    private void checkEndNotBeforeStart(Flow flow) {
        Optional<Expression> end = flow.attribute(Attribute.END);
        if (end.isEmpty()) {
            return;
        }
        Optional<Double> endsAt = staticValue(end.get());
        Optional<Double> startsAt =
                flow.attribute(Attribute.START).map(this::staticValue).orElse(Optional.of(0.0));
        if (endsAt.isPresent() && startsAt.isPresent() && endsAt.get() < startsAt.get()) {
            error(
                    ErrorCode.INVALID_VALUE,
                    end.get().span(),
                    "flow " + flow.displayName() + " ends (" + endsAt.get() + " s) before it starts (" + startsAt.get()
                            + " s)");
        }
    }

    private void checkEndpoint(Endpoint endpoint, Map<String, VariableDeclaration> variables) {
        if (endpoint instanceof Endpoint.Variable variable && !variables.containsKey(variable.name())) {
            error(
                    ErrorCode.UNDECLARED_VARIABLE,
                    endpoint.span(),
                    "'" + variable.name()
                            + "' is not a declared variable (an endpoint is a variable, an IP address or disk)");
        }
    }

    private void checkEndpointPair(Flow flow) {
        Endpoint source = flow.source();
        Endpoint destination = flow.destination();
        if (destination instanceof Endpoint.UnknownSource) {
            error(
                    ErrorCode.UNKNOWN_SOURCE_AS_DESTINATION,
                    destination.span(),
                    "0.0.0.0 (the unknown source) can only be a flow's source");
        } else if (source instanceof Endpoint.Disk && destination instanceof Endpoint.Disk) {
            error(
                    ErrorCode.DISK_TO_DISK,
                    flow.span(),
                    "flow " + flow.displayName() + " goes from disk to disk; one end must be a host or a variable");
        } else if (source instanceof Endpoint.UnknownSource && destination instanceof Endpoint.Disk) {
            error(
                    ErrorCode.DISK_WITHOUT_HOST,
                    flow.span(),
                    "flow " + flow.displayName()
                            + " writes to disk from the unknown source; disk needs a host or variable at the other end");
        } else if (!(source instanceof Endpoint.Disk)
                && QueryPrinter.print(source).equals(QueryPrinter.print(destination))) {
            error(
                    ErrorCode.SAME_ENDPOINT,
                    flow.span(),
                    "flow " + flow.displayName() + " goes from " + describe(source) + " to itself");
        }
    }

    private void checkValue(Flow flow, Attribute attribute, Expression value) {
        nonFinitePart = null;
        Value result = evaluate(flow, value);
        Dimension dimension = result.dimension();
        if (dimension != Dimension.NONE && dimension != Dimension.UNKNOWN && dimension != attribute.dimension()) {
            error(
                    ErrorCode.UNIT_MISMATCH,
                    value.span(),
                    attribute.keyword() + " takes " + attribute.dimension().description() + ", not "
                            + dimension.description());
        }
        result.constant().ifPresent(constant -> {
            if (Double.isNaN(constant) || Double.isInfinite(constant)) {
                error(
                        ErrorCode.INVALID_VALUE,
                        value.span(),
                        attribute.keyword() + " of flow " + flow.displayName()
                                + " is not a finite number (division by zero?)");
            } else if (constant < 0) {
                error(
                        ErrorCode.INVALID_VALUE,
                        value.span(),
                        attribute.keyword() + " of flow " + flow.displayName() + " is negative (" + constant + ")");
            }
        });
        boolean wholeNotFinite =
                result.constant().filter(constant -> !Double.isFinite(constant)).isPresent();
        if (nonFinitePart != null && !wholeNotFinite) {
            // A constant part of a value that refers to the flows (t(f2) * (0 / 0)), or one a later step hides
            // (1 / (1 / 0)): no run of the flows can give it a meaning.
            error(
                    ErrorCode.INVALID_VALUE,
                    nonFinitePart,
                    attribute.keyword() + " of flow " + flow.displayName()
                            + " has a constant part that is not a finite number (division by zero, or too large?)");
        }
    }

    /** The first constant part of the value being checked that is not a finite number, though its parts are. */
    private Span nonFinitePart;

    /** What the validator can tell statically about a value: its dimension and, without references, its number. */
    private record Value(Dimension dimension, Optional<Double> constant) {}

    private Value evaluate(Flow flow, Expression expression) {
        if (expression instanceof Expression.Number number) {
            return new Value(number.unit().dimension(), Optional.of(number.value()));
        }
        if (expression instanceof Expression.Reference reference) {
            checkReference(reference);
            return new Value(reference.attribute().dimension(), staticValue(reference));
        }
        Expression.Binary binary = (Expression.Binary) expression;
        Value left = evaluate(flow, binary.left());
        Value right = evaluate(flow, binary.right());
        Optional<Double> constant =
                left.constant().isPresent() && right.constant().isPresent()
                        ? Optional.of(binary.operator()
                                .apply(left.constant().get(), right.constant().get()))
                        : Optional.empty();
        if (constant.isPresent()
                && !Double.isFinite(constant.get())
                && Double.isFinite(left.constant().get())
                && Double.isFinite(right.constant().get())
                && nonFinitePart == null) {
            nonFinitePart = binary.span();
        }
        return new Value(combine(binary, left.dimension(), right.dimension()), constant);
    }

    /**
     * Each flow's size and start where they are known before the flows run (a number), else empty: values that refer
     * to rates, transfers or ends, to unknown flows, or (through any chain) to themselves. Absent starts are 0.
     */
    private final Map<Flow, Map<Attribute, Optional<Double>>> staticValues = new IdentityHashMap<>();

    /**
     * A flow's size or start, equal by the flow's identity: a record's own equality would walk the whole flow, its
     * values included, at every lookup (the validator's flows are distinct objects).
     */
    private record Node(Flow flow, Attribute attribute) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Node node && node.flow == flow && node.attribute == attribute;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(flow) + attribute.hashCode();
        }
    }

    /**
     * Works out every flow's static size and start once, in dependency order, with an explicit stack: linear in the
     * query's text, however long or tangled its chains of references (recursion would follow them as deep as they go,
     * and re-following shared ones is exponential).
     */
    private void learnStaticValues() {
        Set<Node> inProgress = new HashSet<>();
        for (Flow flow : query.flows()) {
            for (Attribute attribute : List.of(Attribute.SIZE, Attribute.START)) {
                Deque<Node> stack = new ArrayDeque<>(List.of(new Node(flow, attribute)));
                while (!stack.isEmpty()) {
                    Node node = stack.peek();
                    if (known(node) != null) {
                        stack.pop();
                        continue;
                    }
                    Optional<Expression> value = node.flow().attribute(node.attribute());
                    boolean waiting = false;
                    if (value.isPresent() && inProgress.add(node)) {
                        // First visit: what it refers to is worked out first; a reference back to a node in progress
                        // is a cycle, which leaves its value unknown (the dependency check reports it).
                        for (Node needed : staticReferences(value.get())) {
                            if (known(needed) == null && !inProgress.contains(needed)) {
                                stack.push(needed);
                                waiting = true;
                            }
                        }
                    }
                    if (!waiting) {
                        stack.pop();
                        inProgress.remove(node);
                        Optional<Double> result = value.isPresent()
                                ? staticValue(value.get())
                                : node.attribute() == Attribute.START ? Optional.of(0.0) : Optional.empty();
                        staticValues
                                .computeIfAbsent(node.flow(), unused -> new EnumMap<>(Attribute.class))
                                .put(node.attribute(), result);
                    }
                }
            }
        }
    }

    /** The static value learnt for a node, or null while it is not known yet. */
    private Optional<Double> known(Node node) {
        return staticValues.getOrDefault(node.flow(), Map.of()).get(node.attribute());
    }

    /** The sizes and starts of resolvable flows that {@code expression} refers to. */
    private List<Node> staticReferences(Expression expression) {
        List<Node> nodes = new ArrayList<>();
        Deque<Expression> pending = new ArrayDeque<>(List.of(expression));
        while (!pending.isEmpty()) {
            Expression next = pending.pop();
            if (next instanceof Expression.Reference reference) {
                staticNode(reference).ifPresent(nodes::add);
            } else if (next instanceof Expression.Binary binary) {
                pending.push(binary.left());
                pending.push(binary.right());
            }
        }
        return nodes;
    }

    /**
     * What {@code sz(f)} or {@code st(f)} stands for when it does not depend on how the flows run: the flow's size or
     * start as a number, so that {@code size sz(f1) - 2G} is checked like a constant; empty otherwise.
     */
    private Optional<Double> staticValue(Expression.Reference reference) {
        Optional<Double> known = staticNode(reference).map(this::known).orElse(null);
        return known == null ? Optional.empty() : known; // null: none, or in a cycle, still being worked out
    }

    /** The size or start a reference names, where it names one of an existing flow. */
    private Optional<Node> staticNode(Expression.Reference reference) {
        Attribute attribute = reference.attribute();
        if (attribute != Attribute.SIZE && attribute != Attribute.START) {
            return Optional.empty();
        }
        return flows.resolve(reference.flow()).map(flow -> new Node(flow, attribute));
    }

    /** An expression's value from the static values learnt so far (its parts are bounded: no deep recursion). */
    private Optional<Double> staticValue(Expression expression) {
        if (expression instanceof Expression.Number number) {
            return Optional.of(number.value());
        }
        if (expression instanceof Expression.Reference reference) {
            return staticValue(reference);
        }
        Expression.Binary binary = (Expression.Binary) expression;
        Optional<Double> left = staticValue(binary.left());
        Optional<Double> right = staticValue(binary.right());
        return left.isPresent() && right.isPresent()
                ? Optional.of(binary.operator().apply(left.get(), right.get()))
                : Optional.empty();
    }

    private Dimension combine(Expression.Binary binary, Dimension left, Dimension right) {
        switch (binary.operator()) {
            case ADD, SUBTRACT -> {
                if (left == Dimension.NONE || left == Dimension.UNKNOWN) {
                    return right;
                }
                if (right == Dimension.NONE || right == Dimension.UNKNOWN || right == left) {
                    return left;
                }
                error(
                        ErrorCode.UNIT_MISMATCH,
                        binary.span(),
                        "cannot combine " + left.description() + " and " + right.description() + " with '"
                                + binary.operator().symbol() + "'");
                return Dimension.UNKNOWN;
            }
            case MULTIPLY -> {
                if (left == Dimension.NONE) {
                    return right;
                }
                if (right == Dimension.NONE) {
                    return left;
                }
                boolean rateTimesTime = (left == Dimension.RATE && right == Dimension.TIME)
                        || (left == Dimension.TIME && right == Dimension.RATE);
                if (rateTimesTime) {
                    return Dimension.BYTES;
                }
                return mismatch(binary, left, right, "multiply");
            }
            default -> {
                if (right == Dimension.NONE) {
                    return left;
                }
                if (left == right && left != Dimension.UNKNOWN) {
                    return Dimension.NONE;
                }
                if (left == Dimension.BYTES && right == Dimension.RATE) {
                    return Dimension.TIME;
                }
                if (left == Dimension.BYTES && right == Dimension.TIME) {
                    return Dimension.RATE;
                }
                return mismatch(binary, left, right, "divide");
            }
        }
    }

    /**
     * A product or quotient with no unit the language has (bytes x bytes, 1 / 1s): an error, unless a side is already
     * unknown because of an error reported there. Either way the result is unknown, so that it is reported once.
     */
    private Dimension mismatch(Expression.Binary binary, Dimension left, Dimension right, String operation) {
        if (left != Dimension.UNKNOWN && right != Dimension.UNKNOWN) {
            error(
                    ErrorCode.UNIT_MISMATCH,
                    binary.span(),
                    "cannot " + operation + " " + left.description() + " by " + right.description()
                            + ": the result has no unit a flow takes (parenthesize a ratio of like units, e.g. sz(f1)"
                            + " * (t(f2) / t(f3)))");
        }
        return Dimension.UNKNOWN;
    }

    private void checkReference(Expression.Reference reference) {
        Optional<Flow> target = flows.resolve(reference.flow());
        String text = reference.attribute().referenceFunction() + "(" + reference.flow() + ")";
        if (target.isEmpty()) {
            String why = reference.flow() instanceof FlowSelector.ByPosition
                    ? "the query has " + query.flows().size() + " flow"
                            + (query.flows().size() == 1 ? "" : "s")
                    : "no flow is named '" + reference.flow() + "'";
            error(ErrorCode.UNKNOWN_FLOW, reference.flow().span(), "unknown flow in " + text + ": " + why);
            return;
        }
        Flow flow = target.get();
        if (reference.attribute() == Attribute.SIZE && !flow.has(Attribute.SIZE)) {
            error(
                    ErrorCode.UNKNOWN_ATTRIBUTE_VALUE,
                    reference.span(),
                    text + " is unknown: flow " + flow.displayName() + " has no size");
        } else if (reference.attribute() == Attribute.END && !flow.has(Attribute.SIZE) && !flow.has(Attribute.END)) {
            error(
                    ErrorCode.UNKNOWN_ATTRIBUTE_VALUE,
                    reference.span(),
                    text + " is unknown: flow " + flow.displayName() + " has neither size nor end, so it never ends");
        }
    }

    private void error(ErrorCode code, Span span, String message) {
        errors.add(new QueryError(code, span, message));
    }

    private static String at(Span span) {
        return span.isKnown() ? " at line " + span.line() + ":" + span.column() : "";
    }

    /** An endpoint as messages show it: variables quoted, addresses and disk as written canonically. */
    private static String describe(Endpoint endpoint) {
        String text = QueryPrinter.print(endpoint);
        return endpoint instanceof Endpoint.Variable ? "'" + text + "'" : text;
    }
}
