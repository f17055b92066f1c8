package org.cloudtalk.hadoop.hdfs.write;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.cloudtalk.hadoop.hdfs.Endpoints;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.hint.PrintedQuery;
import org.cloudtalk.lang.build.QueryBuilder;

/**
 * Asks CloudTalk the §5.3 pipeline-write query for a new block — the writer sends to r1, each replica stores what
 * it receives and forwards it to the next — over the DataNodes HDFS could use, and turns the answer into a
 * {@link WritePreference}. When one writer's blocks come faster than queries can be answered, one query places
 * several of its blocks at once on distinct hosts and the next blocks take the chains it left ({@link AnsweredChains}).
 *
 * <p>Concurrency: thread-safe: the chains left for later blocks are thread-safe, and the recent queries are guarded by
 * their map's monitor (two blocks with one new key may both build its query).
 */
final class WritePlanner {
    /** The writer is outside the cluster, or has no address CloudTalk can use. */
    private static final String UNKNOWN_WRITER = "0.0.0.0";
    /** The server's default {@code limits.variables} and {@code limits.candidates} (docs/server.md). */
    private static final int MAX_VARIABLES = 100;

    private static final int MAX_CANDIDATE_VALUES = 10_000;
    /** Writers (and block sizes) whose latest queries are kept: a rack's worth of DataNodes writing at once. */
    private static final int RECENT_QUERIES = 64;

    private final HintClient hints;
    private final Endpoints endpoints;
    private final int maxCandidates;
    private final AnsweredChains chains;
    /**
     * The queries built for the latest keys, least recently asked first: building, validating and printing a write
     * query cost the NameNode's handler about as much as the rest of the plugin's work for a block, and with at most
     * {@code maxCandidates} DataNodes (no sampling) each writer asks the same query block after block.
     */
    private final Map<QueryKey, PrintedQuery> recentQueries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<QueryKey, PrintedQuery> eldest) {
            return size() > RECENT_QUERIES;
        }
    };

    /**
     * @param blocksPerQuery the most blocks one query places (1: a query per block)
     * @param answerReuse how long after its answer a chain may still be handed out
     */
    WritePlanner(HintClient hints, Endpoints endpoints, int maxCandidates, int blocksPerQuery, Duration answerReuse) {
        this.hints = requireNonNull(hints, "hints is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.maxCandidates = maxCandidates;
        this.chains = new AnsweredChains(blocksPerQuery, answerReuse, System::nanoTime, hints.metrics()::answersUnused);
    }

    /**
     * CloudTalk's preference among {@code nodes} (the cluster's DataNodes) for {@code replicas} replicas, or empty:
     * fewer than two usable candidates (nothing to choose), or no usable answer (counted as a fallback).
     *
     * @param maxPerRack the most replicas the default policy puts on one rack
     * @param excluded nodes HDFS has already ruled out for this block
     * @param avoid a node the writer asked not to use (NO_LOCAL_WRITE), or null
     */
    Optional<WritePreference> plan(
            Node writer,
            int replicas,
            int maxPerRack,
            Set<Node> excluded,
            Node avoid,
            long blockBytes,
            List<Node> nodes) {
        Map<String, List<DatanodeDescriptor>> byEndpoint = new LinkedHashMap<>();
        for (Node node : nodes) {
            if (node instanceof DatanodeDescriptor datanode
                    && datanode.isInService()
                    && !datanode.equals(avoid)
                    && (excluded == null || !excluded.contains(datanode))) {
                endpoints.of(datanode).ifPresent(endpoint -> byEndpoint
                        .computeIfAbsent(endpoint, key -> new ArrayList<>(1))
                        .add(datanode));
            }
        }
        String source = endpoints.of(writer).orElse(UNKNOWN_WRITER);
        if (byEndpoint.size() < 2) {
            return Optional.empty();
        }
        int variables = Math.min(replicas, Math.min(byEndpoint.size(), maxCandidates));
        AnsweredChains.Request request = new AnsweredChains.Request(source, variables, blockBytes, byEndpoint.keySet());
        Optional<List<String>> ready = chains.take(request);
        if (ready.isPresent()) {
            hints.metrics().answerUsed();
            return Optional.of(preference(ready.get(), variables, byEndpoint, maxPerRack));
        }
        boolean sampled = byEndpoint.size() > maxCandidates;
        List<String> candidates = sample(new ArrayList<>(byEndpoint.keySet()), source);
        int blocks = chains.blocksToAsk(request, mostThatFit(candidates.size(), variables));
        List<List<String>> leftovers = List.of();
        try {
            Optional<List<List<String>>> orders = ask(source, blocks, variables, candidates, blockBytes, sampled);
            if (orders.isEmpty()) {
                return Optional.empty();
            }
            leftovers = orders.get().subList(1, blocks);
            hints.metrics().answerUsed();
            return Optional.of(preference(orders.get().get(0), variables, byEndpoint, maxPerRack));
        } finally {
            chains.asked(request, leftovers);
        }
    }

    /**
     * The most blocks one query may place: on distinct hosts, and within the server's default limits on a query
     * (100 variables, 10,000 candidate values over all variables), so that batching never turns an answerable
     * query into a refused one.
     */
    static int mostThatFit(int candidates, int replicas) {
        int onDistinctHosts = candidates / replicas;
        int withinVariables = MAX_VARIABLES / replicas;
        int withinCandidateValues = MAX_CANDIDATE_VALUES / (replicas * candidates);
        return Math.max(1, Math.min(onDistinctHosts, Math.min(withinVariables, withinCandidateValues)));
    }

    /**
     * One order of preference per block, for {@code blocks} blocks written at once; empty after a fallback.
     *
     * @param sampled whether {@code candidates} is a random sample (its query is not asked again, so not kept)
     */
    private Optional<List<List<String>>> ask(
            String source, int blocks, int replicas, List<String> candidates, long blockBytes, boolean sampled) {
        QueryKey key = new QueryKey(source, blocks, replicas, List.copyOf(candidates), Math.max(1, blockBytes));
        PrintedQuery query = null;
        if (!sampled) {
            synchronized (recentQueries) {
                query = recentQueries.get(key);
            }
        }
        if (query == null) {
            try {
                query = PrintedQuery.of(
                        QueryBuilder.daisyChainWrites(source, blocks, replicas, key.candidates(), key.blockBytes())
                                .build());
            } catch (RuntimeException e) { // QueryException, or the printer's: never the write's failure
                hints.fallback(Fallback.ERROR, "cannot build the write query: " + e.getMessage());
                return Optional.empty();
            }
            if (!sampled) {
                synchronized (recentQueries) {
                    recentQueries.put(key, query);
                }
            }
        }
        List<String> names = List.copyOf(query.query().variables().keySet());
        List<List<String>> perBlock = new ArrayList<>(blocks);
        for (int block = 0; block < blocks; block++) {
            perBlock.add(names.subList(block * replicas, (block + 1) * replicas));
        }
        return hints.preferenceOrders(query, perBlock, new LinkedHashSet<>(candidates));
    }

    /** What a write query is built from: equal keys build the same query. */
    private record QueryKey(String source, int blocks, int replicas, List<String> candidates, long blockBytes) {}

    HintMetrics metrics() {
        return hints.metrics();
    }

    /** Counts how many of the chosen replicas are where the answer said. */
    void record(WritePreference preference, DatanodeStorageInfo[] chosen) {
        for (DatanodeStorageInfo storage : chosen) {
            hints.metrics().chose(preference.answered().contains(storage.getDatanodeDescriptor()));
        }
    }

    /** At most {@code maxCandidates} endpoints, at random (§4.3), always keeping the writer's own. */
    private List<String> sample(List<String> candidates, String writer) {
        if (candidates.size() <= maxCandidates) {
            return candidates;
        }
        Collections.shuffle(candidates, ThreadLocalRandom.current());
        int writerAt = candidates.indexOf(writer);
        if (writerAt >= maxCandidates) {
            Collections.swap(candidates, 0, writerAt);
        }
        return new ArrayList<>(candidates.subList(0, maxCandidates));
    }

    /**
     * The replicas to aim for, in the order the default policy fills its slots, then the rest of CloudTalk's order.
     * The aim is the best-ranked set the default's rack rules accept — at most {@code maxPerRack} on a rack, more
     * than one rack when there are several — starting with CloudTalk's answer. The default puts the second replica
     * off the first one's rack and the third beside the second, so a replica alone on its rack goes first and a
     * pair on one rack next. One DataNode per host at most: a host running several holds one replica, as CloudTalk
     * answered, not two that one machine's failure would lose together.
     */
    static WritePreference preference(
            List<String> order, int replicas, Map<String, List<DatanodeDescriptor>> byEndpoint, int maxPerRack) {
        List<DatanodeDescriptor> ranked = new ArrayList<>();
        Map<DatanodeDescriptor, String> hostOf = new HashMap<>();
        order.forEach(endpoint -> byEndpoint.get(endpoint).forEach(node -> {
            ranked.add(node);
            hostOf.put(node, endpoint);
        }));
        Set<String> racks = new HashSet<>();
        ranked.forEach(node -> racks.add(node.getNetworkLocation()));
        boolean spread = racks.size() > 1 && replicas > 1;
        List<DatanodeDescriptor> aim = new ArrayList<>(replicas);
        Map<String, Integer> perRack = new HashMap<>();
        Set<String> aimedHosts = new HashSet<>();
        for (DatanodeDescriptor node : ranked) {
            if (aim.size() == replicas) {
                break;
            }
            String rack = node.getNetworkLocation();
            boolean rackFull = spread && perRack.getOrDefault(rack, 0) >= maxPerRack;
            boolean lastOnOneRack =
                    spread && aim.size() == replicas - 1 && perRack.keySet().equals(Set.of(rack));
            if (!rackFull && !lastOnOneRack && !aimedHosts.contains(hostOf.get(node))) {
                aim.add(node);
                aimedHosts.add(hostOf.get(node));
                perRack.merge(rack, 1, Integer::sum);
            }
        }
        Set<DatanodeDescriptor> answered = new HashSet<>();
        for (String endpoint : order.subList(0, Math.min(replicas, order.size()))) {
            answered.addAll(byEndpoint.get(endpoint));
        }
        List<DatanodeDescriptor> preference = new ArrayList<>(ranked.size());
        preference.addAll(defaultSlotOrder(aim, perRack));
        ranked.stream().filter(node -> !aim.contains(node)).forEach(preference::add);
        return new WritePreference(preference, answered);
    }

    /** A node alone on its rack first, then two nodes sharing a rack, then the rest; otherwise as ranked. */
    private static List<DatanodeDescriptor> defaultSlotOrder(
            List<DatanodeDescriptor> aim, Map<String, Integer> perRack) {
        Optional<String> pairRack = perRack.entrySet().stream()
                .filter(entry -> entry.getValue() >= 2)
                .map(Map.Entry::getKey)
                .findFirst();
        Optional<DatanodeDescriptor> first = aim.stream()
                .filter(node ->
                        pairRack.isPresent() && !node.getNetworkLocation().equals(pairRack.get()))
                .findFirst();
        if (first.isEmpty()) {
            return aim;
        }
        List<DatanodeDescriptor> ordered = new ArrayList<>(aim.size());
        ordered.add(first.get());
        aim.stream()
                .filter(node -> node.getNetworkLocation().equals(pairRack.get()))
                .limit(2)
                .forEach(ordered::add);
        aim.stream().filter(node -> !ordered.contains(node)).forEach(ordered::add);
        return ordered;
    }
}
