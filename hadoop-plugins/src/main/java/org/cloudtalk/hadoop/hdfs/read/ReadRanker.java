package org.cloudtalk.hadoop.hdfs.read;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.net.Node;
import org.cloudtalk.hadoop.hdfs.Endpoints;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;

/**
 * Asks CloudTalk the §5.3 replica-read query — which replica should read the block from its disk and send it to the
 * reader — and turns the answer into an order over the replicas; once per reader and replica set in one NameNode RPC
 * ({@link CallOrders}).
 *
 * <p>Concurrency: thread-safe (its per-RPC orders are per thread).
 */
final class ReadRanker {
    private final HintClient hints;
    private final Endpoints endpoints;
    private final long blockBytes;
    private final CallOrders callOrders = new CallOrders();

    ReadRanker(HintClient hints, Endpoints endpoints, long blockBytes) {
        this.hints = requireNonNull(hints, "hints is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.blockBytes = blockBytes;
    }

    HintMetrics metrics() {
        return hints.metrics();
    }

    /**
     * CloudTalk's order of the replicas for {@code reader} (best first; nodes it did not rank last), or empty when
     * there is nothing to choose — fewer than two replica hosts, a reader without an address, or a replica on the
     * reader's own host, which HDFS reads locally anyway — or no usable answer (counted as a fallback).
     */
    Optional<Comparator<Node>> order(Node reader, List<? extends Node> replicas) {
        Optional<String> client = endpoints.of(reader);
        if (replicas.size() < 2 || client.isEmpty()) {
            return Optional.empty();
        }
        Set<String> candidates = new LinkedHashSet<>();
        for (Node replica : replicas) {
            Optional<String> endpoint = endpoints.of(replica);
            if (endpoint.equals(client)) {
                return Optional.empty();
            }
            endpoint.ifPresent(candidates::add);
        }
        if (candidates.size() < 2) {
            return Optional.empty();
        }
        return callOrders
                .order(client.get(), candidates, () -> ask(client.get(), candidates))
                .map(this::comparator);
    }

    private Optional<List<String>> ask(String client, Set<String> candidates) {
        Query query;
        try {
            query = QueryBuilder.replicaRead(List.copyOf(candidates), client, blockBytes)
                    .build();
        } catch (QueryException e) {
            hints.fallback(Fallback.ERROR, "cannot build the read query: " + e.getMessage());
            return Optional.empty();
        }
        return hints.preferenceOrder(query, candidates);
    }

    private Comparator<Node> comparator(List<String> order) {
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            rank.put(order.get(i), i);
        }
        return Comparator.comparingInt(node -> endpoints.of(node).map(rank::get).orElse(Integer.MAX_VALUE));
    }
}
