package org.cloudtalk.hadoop.yarn;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;

/**
 * Asks CloudTalk §5.3's reduce query — m reduces each receiving from unknown senders and writing to its disk at the
 * same rate, over a partition's hosts (a random sample of {@code cloudtalk.yarn.candidates.max} of them on a large
 * partition) — and keeps the answer as a ranking: the m placed hosts in the order the answer binds them, then the
 * other candidates by their best score; hosts left out of the sample are not ranked.
 *
 * <p>Concurrency: thread-safe (no mutable state of its own).
 */
final class ReducePreference {
    private final HintClient hints;
    private final YarnHintSettings settings;

    ReducePreference(HintClient hints, YarnHintSettings settings) {
        this.hints = requireNonNull(hints, "hints is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    HintMetrics metrics() {
        return hints.metrics();
    }

    /** A ranking of hosts: position 0 is the best; the first {@code preferred} are the hosts the query placed. */
    record Ranking(Map<String, Integer> positions, int preferred) {
        Ranking {
            positions = Map.copyOf(positions);
        }

        /** The host's position, or {@link Integer#MAX_VALUE} for a host the ranking does not know. */
        int position(String endpoint) {
            return positions.getOrDefault(endpoint, Integer.MAX_VALUE);
        }

        boolean preferred(String endpoint) {
            return position(endpoint) < preferred;
        }
    }

    /** CloudTalk's ranking of {@code endpoints}, or empty (counted) without a usable answer or a choice to make. */
    Optional<Ranking> rank(Set<String> endpoints) {
        if (endpoints.size() < 2) {
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>(endpoints);
        if (candidates.size() > settings.maxCandidates()) {
            // §4.3: a random sample; the hosts left out of it rank after the sampled ones.
            Collections.shuffle(candidates, ThreadLocalRandom.current());
            candidates = candidates.subList(0, settings.maxCandidates());
        }
        int placed = settings.preferredHosts(candidates.size());
        Query query;
        try {
            query = QueryBuilder.reducers(placed, candidates, settings.reduceBytes())
                    .build();
        } catch (QueryException e) {
            hints.fallback(Fallback.ERROR, "cannot build the reduce query: " + e.getMessage());
            return Optional.empty();
        }
        return hints.preferenceOrder(query, new LinkedHashSet<>(candidates)).map(order -> {
            Map<String, Integer> positions = new HashMap<>();
            for (int i = 0; i < order.size(); i++) {
                positions.put(order.get(i), i);
            }
            return new Ranking(positions, placed);
        });
    }
}
