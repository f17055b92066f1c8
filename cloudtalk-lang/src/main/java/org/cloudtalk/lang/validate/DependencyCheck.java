package org.cloudtalk.lang.validate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryError;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Query;

/**
 * Finds attribute dependencies that can never be resolved.
 *
 * <p>Each (flow, attribute) pair is a node; a reference in an attribute's value is an edge to the referenced node.
 * Implicit edges say how a flow's own attributes depend on each other: its rate needs it to have started and obeys
 * its transfer cap, its transfer follows its rate up to its size, and an end that is not given follows from start,
 * size and rate. A cycle of rates and transfers alone is legal (the paper's {@code rate r(f2)} / {@code rate r(f1)}
 * pair: rates settle together); a cycle through a start, end or size is not, because each of those must be known
 * before the others on the cycle can progress. A reference of an attribute to itself is reported on its own.
 */
final class DependencyCheck {
    private static final int ATTRIBUTES = Attribute.values().length;
    private static final int MAX_CYCLE_SHOWN = 12;

    private final Query query;
    private final FlowResolver flows;
    private final List<QueryError> errors;
    private final List<List<Edge>> edges;

    /** {@code via} is the reference that made the edge, or {@link Span#NONE} for an implicit edge. */
    private record Edge(int target, Span via) {}

    private DependencyCheck(Query query, FlowResolver flows, List<QueryError> errors) {
        this.query = query;
        this.flows = flows;
        this.errors = errors;
        int nodes = query.flows().size() * ATTRIBUTES;
        this.edges = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            edges.add(new ArrayList<>(2));
        }
    }

    static void check(Query query, FlowResolver flows, List<QueryError> errors) {
        DependencyCheck check = new DependencyCheck(query, flows, errors);
        check.addEdges();
        check.reportCycles();
    }

    private void addEdges() {
        for (Flow flow : query.flows()) {
            for (var entry : flow.attributes().entrySet()) {
                addReferences(flow, entry.getKey(), entry.getValue());
            }
            implicit(flow, Attribute.RATE, Attribute.START);
            implicit(flow, Attribute.RATE, Attribute.TRANSFER);
            implicit(flow, Attribute.TRANSFER, Attribute.RATE);
            implicit(flow, Attribute.TRANSFER, Attribute.SIZE);
            if (!flow.has(Attribute.END)) {
                implicit(flow, Attribute.END, Attribute.START);
                implicit(flow, Attribute.END, Attribute.SIZE);
                implicit(flow, Attribute.END, Attribute.RATE);
            }
        }
    }

    private void addReferences(Flow flow, Attribute attribute, Expression expression) {
        if (expression instanceof Expression.Binary binary) {
            addReferences(flow, attribute, binary.left());
            addReferences(flow, attribute, binary.right());
            return;
        }
        if (!(expression instanceof Expression.Reference reference)) {
            return;
        }
        Optional<Flow> target = flows.resolve(reference.flow());
        if (target.isEmpty()) {
            return; // reported as UNKNOWN_FLOW
        }
        if (target.get().position() == flow.position() && reference.attribute() == attribute) {
            errors.add(new QueryError(
                    ErrorCode.SELF_REFERENCE,
                    reference.span(),
                    attribute.keyword() + " of flow " + flow.displayName() + " refers to itself"));
            return;
        }
        edges.get(node(flow, attribute)).add(new Edge(node(target.get(), reference.attribute()), reference.span()));
    }

    private void implicit(Flow flow, Attribute from, Attribute to) {
        edges.get(node(flow, from)).add(new Edge(node(flow, to), Span.NONE));
    }

    private static int node(Flow flow, Attribute attribute) {
        return (flow.position() - 1) * ATTRIBUTES + attribute.ordinal();
    }

    private void reportCycles() {
        int[] component = stronglyConnectedComponents();
        int[] componentSize = new int[edges.size()];
        for (int id : component) {
            componentSize[id]++;
        }
        boolean[] reported = new boolean[edges.size()];
        for (int node = 0; node < edges.size(); node++) {
            int id = component[node];
            // Self-references are reported separately and add no edge, so a cycle has at least two nodes.
            if (!isStatic(node) || reported[id] || componentSize[id] < 2) {
                continue;
            }
            reported[id] = true;
            List<Integer> cycle = cycleThrough(node, component);
            errors.add(new QueryError(
                    ErrorCode.CYCLIC_DEPENDENCY,
                    firstReference(cycle),
                    "cyclic dependency that can never be resolved: " + describe(cycle)
                            + " (only rates and transfers may depend on each other in a cycle)"));
        }
    }

    /** Where to point the user: the first reference written in the query along the cycle. */
    private Span firstReference(List<Integer> cycle) {
        for (int i = 0; i < cycle.size(); i++) {
            int to = cycle.get((i + 1) % cycle.size());
            for (Edge edge : edges.get(cycle.get(i))) {
                if (edge.target() == to && edge.via().isKnown()) {
                    return edge.via();
                }
            }
        }
        return Span.NONE;
    }

    /** {@code a -> b -> ... -> a}, eliding the middle of long cycles to keep the message readable. */
    private String describe(List<Integer> cycle) {
        StringBuilder path = new StringBuilder(name(cycle.get(0)));
        for (int i = 1; i < cycle.size(); i++) {
            if (cycle.size() > MAX_CYCLE_SHOWN && i == MAX_CYCLE_SHOWN - 1) {
                path.append(" -> ... (").append(cycle.size() - MAX_CYCLE_SHOWN).append(" more)");
                i = cycle.size() - 1;
            }
            path.append(" -> ").append(name(cycle.get(i)));
        }
        return path.append(" -> ").append(name(cycle.get(0))).toString();
    }

    private static boolean isStatic(int node) {
        return Attribute.values()[node % ATTRIBUTES].isStatic();
    }

    /** A shortest cycle from {@code start} back to itself inside its component, by breadth-first search. */
    private List<Integer> cycleThrough(int start, int[] component) {
        int[] parent = new int[edges.size()];
        Arrays.fill(parent, -1);
        Deque<Integer> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            int node = queue.poll();
            for (Edge edge : edges.get(node)) {
                if (component[edge.target()] != component[start]) {
                    continue;
                }
                if (edge.target() == start) {
                    List<Integer> cycle = new ArrayList<>();
                    for (int at = node; at != start; at = parent[at]) {
                        cycle.add(0, at);
                    }
                    cycle.add(0, start);
                    return cycle;
                }
                if (parent[edge.target()] == -1) {
                    parent[edge.target()] = node;
                    queue.add(edge.target());
                }
            }
        }
        throw new IllegalStateException("node " + start + " is in a cycle but none was found");
    }

    private String name(int node) {
        Flow flow = query.flows().get(node / ATTRIBUTES);
        String flowName = flow.name().map(Object::toString).orElse(Integer.toString(flow.position()));
        return Attribute.values()[node % ATTRIBUTES].referenceFunction() + "(" + flowName + ")";
    }

    /** Tarjan's algorithm without recursion (queries may have many flows): the component id of every node. */
    private int[] stronglyConnectedComponents() {
        int count = edges.size();
        int[] index = new int[count];
        int[] lowLink = new int[count];
        int[] component = new int[count];
        boolean[] onStack = new boolean[count];
        Arrays.fill(index, -1);
        Deque<Integer> stack = new ArrayDeque<>();
        int[] callNode = new int[count];
        int[] callEdge = new int[count];
        int nextIndex = 0;
        int nextComponent = 0;
        for (int root = 0; root < count; root++) {
            if (index[root] != -1) {
                continue;
            }
            int depth = 0;
            callNode[0] = root;
            callEdge[0] = 0;
            index[root] = lowLink[root] = nextIndex++;
            stack.push(root);
            onStack[root] = true;
            while (depth >= 0) {
                int node = callNode[depth];
                List<Edge> out = edges.get(node);
                if (callEdge[depth] < out.size()) {
                    int next = out.get(callEdge[depth]++).target();
                    if (index[next] == -1) {
                        index[next] = lowLink[next] = nextIndex++;
                        stack.push(next);
                        onStack[next] = true;
                        depth++;
                        callNode[depth] = next;
                        callEdge[depth] = 0;
                    } else if (onStack[next]) {
                        lowLink[node] = Math.min(lowLink[node], index[next]);
                    }
                    continue;
                }
                if (lowLink[node] == index[node]) {
                    int member;
                    do {
                        member = stack.pop();
                        onStack[member] = false;
                        component[member] = nextComponent;
                    } while (member != node);
                    nextComponent++;
                }
                depth--;
                if (depth >= 0) {
                    int caller = callNode[depth];
                    lowLink[caller] = Math.min(lowLink[caller], lowLink[node]);
                }
            }
        }
        return component;
    }
}
