package org.cloudtalk.lang.build;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Operator;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.Unit;
import org.cloudtalk.lang.ast.VariableDeclaration;
import org.cloudtalk.lang.print.QueryPrinter;
import org.cloudtalk.lang.validate.QueryValidator;

/**
 * Builds queries in Java, for plugins that would otherwise concatenate strings. The result goes through the same
 * validation as parsed text, and anything wrong with names or addresses is a {@link QueryException}.
 *
 * <pre>{@code
 * QueryBuilder builder = new QueryBuilder();
 * builder.variable("A", List.of("10.0.0.2", "10.0.0.3"));
 * builder.flow("f1", QueryBuilder.variable("A"), QueryBuilder.host("10.0.0.1")).size(QueryBuilder.bytes(256 << 20));
 * Query query = builder.build();
 * }</pre>
 *
 * <p>Not thread-safe; build one query per instance.
 */
public final class QueryBuilder {
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_][a-zA-Z_0-9]*");
    private static final Set<String> RESERVED = Set.of("shared", "disk", "start", "end", "size", "rate", "transfer");

    private final List<VariableDeclaration> declarations = new ArrayList<>();
    private final List<FlowBuilder> flows = new ArrayList<>();

    /** Declares variables that bind to distinct values from {@code candidates} (IP address literals or "disk"). */
    public QueryBuilder variables(List<String> names, List<String> candidates) {
        return declare(names, candidates, false);
    }

    /** Declares variables that may bind to the same value as other variables. */
    public QueryBuilder sharedVariables(List<String> names, List<String> candidates) {
        return declare(names, candidates, true);
    }

    public QueryBuilder variable(String name, List<String> candidates) {
        return declare(List.of(name), candidates, false);
    }

    /** Adds a named flow; set its attributes on the returned builder. */
    public FlowBuilder flow(String name, Endpoint source, Endpoint destination) {
        return addFlow(Optional.of(identifier(requireNonNull(name, "name is null"))), source, destination);
    }

    /** Adds an unnamed flow, referred to by its position. */
    public FlowBuilder flow(Endpoint source, Endpoint destination) {
        return addFlow(Optional.empty(), source, destination);
    }

    /** The validated query. */
    public Query build() {
        List<Flow> built = new ArrayList<>(flows.size());
        for (FlowBuilder flow : flows) {
            built.add(new Flow(built.size() + 1, flow.name, flow.source, flow.destination, flow.attributes, Span.NONE));
        }
        Query query = new Query(declarations, built);
        for (Flow flow : built) {
            flow.attributes().values().forEach(BuilderLimits::check);
        }
        QueryValidator.validate(query);
        return query;
    }

    /** The validated query in canonical text form. */
    public String toText() {
        return QueryPrinter.print(build());
    }

    // ---- the paper's patterns -------------------------------------------------------------------------------

    /**
     * Reading a block from one of its replicas (§5.3): variable {@code src} over the replicas, each candidate's disk
     * read feeding the transfer to the client at the same rate.
     */
    public static QueryBuilder replicaRead(List<String> replicas, String client, long bytes) {
        QueryBuilder builder = new QueryBuilder().variable("src", replicas);
        Endpoint source = variable("src");
        builder.flow("f1", disk(), source).size(bytes(bytes)).rate(rateOf("f2"));
        builder.flow("f2", source, host(client)).size(bytes(bytes)).rate(rateOf("f1"));
        return builder;
    }

    /**
     * An HDFS pipeline write of {@code replicas} copies (§5.3): variables {@code r1..rk} over the candidates; the
     * writer sends to r1, each replica stores to disk at the rate it receives and forwards no more than it has stored.
     * A writer outside the cluster is {@code 0.0.0.0}.
     */
    public static QueryBuilder daisyChainWrite(String writer, int replicas, List<String> candidates, long bytes) {
        return daisyChainWrites(writer, List.of(replicaNames("r", replicas)), candidates, bytes);
    }

    /**
     * {@code blocks} pipeline writes of {@code replicas} copies each, all from {@code writer} at once, every replica
     * on a distinct host: block b's replicas are the variables {@code b<b>r1..b<b>rk}, in pipeline order. One answer
     * places several blocks, and the server's pseudo-reservation stands for all of them.
     */
    public static QueryBuilder daisyChainWrites(
            String writer, int blocks, int replicas, List<String> candidates, long bytes) {
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks must be at least 1: " + blocks);
        }
        List<List<String>> chains = new ArrayList<>(blocks);
        for (int block = 1; block <= blocks; block++) {
            chains.add(replicaNames("b" + block + "r", replicas));
        }
        return daisyChainWrites(writer, chains, candidates, bytes);
    }

    private static List<String> replicaNames(String prefix, int replicas) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1: " + replicas);
        }
        List<String> names = new ArrayList<>(replicas);
        for (int i = 1; i <= replicas; i++) {
            names.add(prefix + i);
        }
        return names;
    }

    private static QueryBuilder daisyChainWrites(
            String writer, List<List<String>> chains, List<String> candidates, long bytes) {
        QueryBuilder builder = new QueryBuilder()
                .variables(chains.stream().flatMap(List::stream).toList(), candidates);
        int flow = 0;
        for (List<String> chain : chains) {
            Endpoint upstream = host(writer);
            for (int i = 0; i < chain.size(); i++) {
                String network = "f" + (flow + 1);
                String store = "f" + (flow + 2);
                Endpoint replica = variable(chain.get(i));
                FlowBuilder send = builder.flow(network, upstream, replica)
                        .size(bytes(bytes))
                        .rate(rateOf(store));
                if (i > 0) {
                    // A replica forwards no more than the previous one has stored.
                    send.transfer(transferOf("f" + flow));
                }
                builder.flow(store, replica, disk()).size(bytes(bytes)).rate(rateOf(network));
                upstream = replica;
                flow += 2;
            }
        }
        return builder;
    }

    /**
     * Placing {@code reducers} reduce tasks (§5.3): variables {@code x1..xm} over the nodes, each receiving its
     * partition from unknown sources (the mappers) and writing it to disk at the same rate.
     */
    public static QueryBuilder reducers(int reducers, List<String> nodes, long bytesPerReducer) {
        if (reducers < 1) {
            throw new IllegalArgumentException("reducers must be at least 1: " + reducers);
        }
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= reducers; i++) {
            names.add("x" + i);
        }
        QueryBuilder builder = new QueryBuilder().variables(names, nodes);
        for (int i = 1; i <= reducers; i++) {
            String network = "f" + (2 * i - 1);
            String store = "f" + (2 * i);
            Endpoint reducer = variable("x" + i);
            builder.flow(network, unknownSource(), reducer)
                    .size(bytes(bytesPerReducer))
                    .rate(rateOf(store));
            builder.flow(store, reducer, disk()).size(bytes(bytesPerReducer)).rate(rateOf(network));
        }
        return builder;
    }

    /**
     * Choosing where a map task reads its split from (§5.3): variable {@code X} over the split's hosts, reading from
     * disk and sending to the node that runs the task.
     */
    public static QueryBuilder mapPlacement(List<String> splitHosts, String taskNode, long splitBytes) {
        QueryBuilder builder = new QueryBuilder().variable("X", splitHosts);
        Endpoint source = variable("X");
        builder.flow("f1", disk(), source).size(bytes(splitBytes)).rate(rateOf("f2"));
        builder.flow("f2", source, host(taskNode)).size(bytes(splitBytes)).rate(rateOf("f1"));
        return builder;
    }

    // ---- endpoints and values -------------------------------------------------------------------------------

    public static Endpoint variable(String name) {
        return new Endpoint.Variable(identifier(name).value(), Span.NONE);
    }

    /** An address literal; {@code 0.0.0.0} gives the unknown source. */
    public static Endpoint host(String address) {
        return Endpoint.of(address(address), Span.NONE);
    }

    public static Endpoint disk() {
        return new Endpoint.Disk(Span.NONE);
    }

    public static Endpoint unknownSource() {
        return new Endpoint.UnknownSource(Span.NONE);
    }

    /** A byte count, written with the largest binary multiplier that divides it (256M rather than 268435456). */
    public static Expression bytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        Unit[] multipliers = {Unit.TERA, Unit.GIGA, Unit.MEGA, Unit.KILO};
        for (Unit unit : multipliers) {
            long factor = (long) unit.multiplier();
            if (bytes != 0 && bytes % factor == 0) {
                return new Expression.Number(bytes / factor, unit, Span.NONE);
            }
        }
        return new Expression.Number(bytes, Unit.NONE, Span.NONE);
    }

    public static Expression bytesPerSecond(double rate) {
        return new Expression.Number(rate, Unit.BYTES_PER_SECOND, Span.NONE);
    }

    public static Expression seconds(double seconds) {
        return new Expression.Number(seconds, Unit.SECOND, Span.NONE);
    }

    public static Expression number(double number) {
        return new Expression.Number(number, Unit.NONE, Span.NONE);
    }

    /** {@code st e sz r t} of a named flow. */
    public static Expression reference(Attribute attribute, String flowName) {
        return new Expression.Reference(
                attribute, new FlowSelector.ByName(identifier(flowName).value(), Span.NONE), Span.NONE);
    }

    /** {@code st e sz r t} of the flow at a 1-based position. */
    public static Expression reference(Attribute attribute, int flowPosition) {
        return new Expression.Reference(attribute, new FlowSelector.ByPosition(flowPosition, Span.NONE), Span.NONE);
    }

    public static Expression rateOf(String flowName) {
        return reference(Attribute.RATE, flowName);
    }

    public static Expression transferOf(String flowName) {
        return reference(Attribute.TRANSFER, flowName);
    }

    public static Expression sizeOf(String flowName) {
        return reference(Attribute.SIZE, flowName);
    }

    public static Expression binary(Operator operator, Expression left, Expression right) {
        return new Expression.Binary(operator, left, right, Span.NONE);
    }

    /** Attributes of one flow; each may be set once. */
    public final class FlowBuilder {
        private final Optional<Identifier> name;
        private final Endpoint source;
        private final Endpoint destination;
        private final Map<Attribute, Expression> attributes = new EnumMap<>(Attribute.class);

        private FlowBuilder(Optional<Identifier> name, Endpoint source, Endpoint destination) {
            this.name = name;
            this.source = requireNonNull(source, "source is null");
            this.destination = requireNonNull(destination, "destination is null");
        }

        public FlowBuilder start(Expression value) {
            return set(Attribute.START, value);
        }

        public FlowBuilder end(Expression value) {
            return set(Attribute.END, value);
        }

        public FlowBuilder size(Expression value) {
            return set(Attribute.SIZE, value);
        }

        public FlowBuilder rate(Expression value) {
            return set(Attribute.RATE, value);
        }

        public FlowBuilder transfer(Expression value) {
            return set(Attribute.TRANSFER, value);
        }

        public FlowBuilder set(Attribute attribute, Expression value) {
            requireNonNull(value, "value is null");
            if (attributes.putIfAbsent(attribute, value) != null) {
                throw new QueryException(
                        ErrorCode.DUPLICATE_ATTRIBUTE,
                        Span.NONE,
                        attribute.keyword() + " is given twice for flow "
                                + name.map(Identifier::value).orElse("#" + position()));
            }
            return this;
        }

        private int position() {
            return flows.indexOf(this) + 1;
        }
    }

    private QueryBuilder declare(List<String> names, List<String> candidates, boolean shared) {
        List<Identifier> identifiers =
                names.stream().map(QueryBuilder::identifier).toList();
        List<Endpoint> values = candidates.stream()
                .map(candidate -> "disk".equals(candidate) ? disk() : host(candidate))
                .toList();
        declarations.add(new VariableDeclaration(identifiers, values, shared, Span.NONE));
        return this;
    }

    private FlowBuilder addFlow(Optional<Identifier> name, Endpoint source, Endpoint destination) {
        FlowBuilder flow = new FlowBuilder(name, source, destination);
        flows.add(flow);
        return flow;
    }

    private static Identifier identifier(String name) {
        requireNonNull(name, "name is null");
        if (!IDENTIFIER.matcher(name).matches() || RESERVED.contains(name)) {
            throw new QueryException(
                    ErrorCode.INVALID_NAME,
                    Span.NONE,
                    "'" + name + "' is not a valid name: "
                            + "use letters, digits and _, not starting with a digit, and not a keyword");
        }
        return new Identifier(name, Span.NONE);
    }

    private static Address address(String literal) {
        requireNonNull(literal, "address is null");
        try {
            return Address.parse(literal);
        } catch (IllegalArgumentException e) {
            throw new QueryException(
                    ErrorCode.INVALID_ADDRESS, Span.NONE, "invalid address '" + literal + "': " + e.getMessage());
        }
    }
}
