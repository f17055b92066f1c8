package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What to do with one request's replicas: for each shard CloudTalk decided, the nodes to read first (every node on
 * the chosen host); shards it did not decide keep Solr's order. {@code fallback} says why nothing was decided.
 */
public record Advice(Map<String, Set<String>> preferredNodes, Optional<Fallback> fallback) {
    private static final Advice NOTHING_TO_DECIDE = new Advice(Map.of(), Optional.empty());

    public Advice {
        preferredNodes = Map.copyOf(requireNonNull(preferredNodes, "preferredNodes is null"));
        requireNonNull(fallback, "fallback is null");
    }

    static Advice nothingToDecide() {
        return NOTHING_TO_DECIDE;
    }

    static Advice fallback(Fallback cause) {
        return new Advice(Map.of(), Optional.of(cause));
    }

    /**
     * Moves the choices on a preferred node of {@code shard} to the front, each group keeping its order; the rest is
     * Solr's order, so {@code shards.preference} still decides among what CloudTalk did not.
     */
    public <T> void order(String shard, List<T> choices, Function<T, String> nodeOf) {
        Set<String> preferred = preferredNodes.get(shard);
        if (preferred == null || preferred.isEmpty()) {
            return;
        }
        List<T> first = choices.stream()
                .filter(choice -> preferred.contains(nodeOf.apply(choice)))
                .toList();
        if (first.isEmpty()) {
            return;
        }
        List<T> rest = choices.stream()
                .filter(choice -> !preferred.contains(nodeOf.apply(choice)))
                .toList();
        choices.clear();
        choices.addAll(first);
        choices.addAll(rest);
    }
}
