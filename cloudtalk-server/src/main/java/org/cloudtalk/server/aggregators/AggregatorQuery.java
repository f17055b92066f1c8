package org.cloudtalk.server.aggregators;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.query.TenantLimits;

/**
 * The scatter-gather query of §5.4: index servers answer their aggregator, which forwards each answer to the frontend
 * as it arrives (store-and-forward, {@code transfer t(f)}). The {@code k} aggregators are variables over the same
 * candidates and may coincide ({@code shared}), so one query covers a single aggregator and every k-level placement.
 *
 * @param servers the index servers, nearest each other first: {@link Shape#SPLIT} cuts this order into k groups
 * @param candidates the hosts an aggregator may go on
 * @param frontend the host that receives every answer
 * @param aggregators k, how many aggregators
 * @param responseBytes what each server sends per query
 * @param shape who sends to which aggregator
 */
public record AggregatorQuery(
        List<Address> servers,
        List<Address> candidates,
        Address frontend,
        int aggregators,
        long responseBytes,
        Shape shape) {
    /** The most aggregators one placement takes: the server's default limit of variables in a query. */
    public static final int MAX_AGGREGATORS = TenantLimits.DEFAULT.maxVariables();

    /** Who sends to which aggregator. */
    public enum Shape {
        /**
         * The paper's two-level web search: the servers, in the order given, split into k contiguous groups of (nearly)
         * equal size, one per aggregator; one query at a time.
         */
        SPLIT,
        /**
         * Every aggregator gathers from every server: k queries at once, one per aggregator, as SolrCloud coordinator
         * nodes serve them (each asks one replica per shard).
         */
        EVERY
    }

    public AggregatorQuery {
        servers = List.copyOf(servers);
        candidates = List.copyOf(new LinkedHashSet<>(candidates));
        requireNonNull(frontend, "frontend is null");
        requireNonNull(shape, "shape is null");
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no servers: give at least one");
        }
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("no candidate hosts for the aggregators: give at least one");
        }
        if (aggregators < 1 || aggregators > MAX_AGGREGATORS) {
            // Checked before the query's text is built: k variables and k groups of flows, held in memory at once.
            throw new IllegalArgumentException("the number of aggregators must be between 1 and " + MAX_AGGREGATORS
                    + " (a query's variables), not " + aggregators);
        }
        if (shape == Shape.SPLIT && aggregators > servers.size()) {
            throw new IllegalArgumentException("cannot split " + servers.size() + " servers among " + aggregators
                    + " aggregators: each needs at least one server");
        }
        if (responseBytes < 1) {
            throw new IllegalArgumentException("the response size must be at least 1 byte, not " + responseBytes);
        }
        // The query language's unknown source can only send: it can be no aggregator, frontend or simulated server.
        List<Address> named = new ArrayList<>(servers);
        named.addAll(candidates);
        named.add(frontend);
        for (Address host : named) {
            if (host.isUnspecified()) {
                throw new IllegalArgumentException(host.text()
                        + " (the unknown host) cannot be a server, a candidate or the frontend: name a host");
            }
        }
    }

    /** The aggregator variables' names: AGG1 .. AGGk. */
    public List<String> variables() {
        List<String> names = new ArrayList<>();
        for (int a = 1; a <= aggregators; a++) {
            names.add("AGG" + a);
        }
        return names;
    }

    /** Which aggregator (0-based) server {@code index} sends to under {@link Shape#SPLIT}. */
    int groupOf(int index) {
        return (int) ((long) index * aggregators / servers.size());
    }

    /** The query text, in the language of docs/language.md. */
    public String text() {
        StringBuilder text = new StringBuilder("shared ")
                .append(String.join(" = ", variables()))
                .append(" = (");
        for (int c = 0; c < candidates.size(); c++) {
            text.append(c == 0 ? "" : " ").append(candidates.get(c));
        }
        text.append(")\n");
        int flow = 0;
        for (int s = 0; s < servers.size(); s++) {
            for (int a = 0; a < aggregators; a++) {
                if (shape == Shape.SPLIT && groupOf(s) != a) {
                    continue;
                }
                flow++;
                String aggregator = "AGG" + (a + 1);
                text.append('f')
                        .append(flow)
                        .append("a ")
                        .append(servers.get(s))
                        .append(" -> ")
                        .append(aggregator)
                        .append(" size ")
                        .append(responseBytes)
                        .append('\n');
                text.append('f')
                        .append(flow)
                        .append("b ")
                        .append(aggregator)
                        .append(" -> ")
                        .append(frontend)
                        .append(" size sz(f")
                        .append(flow)
                        .append("a) transfer t(f")
                        .append(flow)
                        .append("a)\n");
            }
        }
        return text.toString();
    }
}
