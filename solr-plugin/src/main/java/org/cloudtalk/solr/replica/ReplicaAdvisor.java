package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, for one distributed request, which replica host of each shard to read first: one CloudTalk query for all
 * shards, answers cached for {@code cacheTtl} per (aggregator, shard pools), and a strict {@code deadline} on the
 * request's wait. Queries run on the advisor's own small pool, so a late answer still lands in the cache for the next
 * requests; failures are cached for the TTL too, so a dead server costs one connection attempt per TTL, not one per
 * request. Never throws: whatever goes wrong is an {@link Advice} with a {@link Fallback} cause.
 *
 * <p>Concurrency: thread-safe. The cache is a concurrent map of entries whose future is completed once by a pool
 * thread; an expired entry is replaced atomically, so concurrent misses share one query, and until that query ends
 * (for at most its timeout) the expired entry's answer, if it was one, stands in for it.
 */
public final class ReplicaAdvisor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReplicaAdvisor.class);
    private static final long WARNING_INTERVAL_SECONDS = 60;
    private static final int MAX_CACHED = 1024;

    private final AdvisorConfig config;
    private final HintSource source;
    private final AdvisorMetrics metrics;
    private final HostMapper mapper;
    private final ThreadPoolExecutor queries;
    private final ConcurrentHashMap<PoolKey, Entry> cache = new ConcurrentHashMap<>();
    /** When the next warning may be logged (nanos), and how many were not logged since the last one. */
    private final AtomicLong nextWarning = new AtomicLong(System.nanoTime());

    private final AtomicLong unwarned = new AtomicLong();

    public ReplicaAdvisor(AdvisorConfig config, HintSource source, AdvisorMetrics metrics) {
        this.config = requireNonNull(config, "config is null");
        this.source = requireNonNull(source, "source is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.mapper = new HostMapper(config.hostMap(), config.hostMapFile());
        this.queries = new ThreadPoolExecutor(
                config.threads(),
                config.threads(),
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(64),
                Threads.named("cloudtalk-solr-query"));
        queries.allowCoreThreadTimeOut(true);
    }

    /**
     * @param aggregatorNode the Solr node name of the node gathering the results (this one)
     * @param shardNodes per shard, the node names of its replicas that Solr may use
     */
    public Advice advise(String aggregatorNode, Map<String, List<String>> shardNodes) {
        long deadline = System.nanoTime() + config.deadline().toNanos();
        try {
            Advice advice = decide(aggregatorNode, shardNodes, deadline);
            advice.fallback().ifPresentOrElse(metrics::fellBack, () -> {
                if (!advice.preferredNodes().isEmpty()) {
                    metrics.answerUsed();
                }
            });
            return advice;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            metrics.fellBack(Fallback.DEADLINE);
            return Advice.fallback(Fallback.DEADLINE);
        } catch (RuntimeException e) {
            log.warn("Keeping Solr's replica order: unexpected failure", e);
            metrics.fellBack(Fallback.ERROR);
            return Advice.fallback(Fallback.ERROR);
        }
    }

    private Advice decide(String aggregatorNode, Map<String, List<String>> shardNodes, long deadline)
            throws InterruptedException {
        mapper.refresh();
        Optional<String> aggregator = mapper.ip(aggregatorNode);
        if (aggregator.isEmpty()) {
            return Advice.fallback(Fallback.UNMAPPED);
        }
        Map<String, Map<String, String>> ipsByShard = new TreeMap<>();
        SortedMap<String, List<String>> pools = new TreeMap<>();
        for (Map.Entry<String, List<String>> shard : shardNodes.entrySet()) {
            if (shard.getValue().isEmpty()) {
                continue; // no replica Solr may use (all down): nothing to choose, Solr deals with the shard
            }
            Map<String, String> ips = new HashMap<>();
            for (String node : shard.getValue()) {
                Optional<String> ip = mapper.ip(node);
                if (ip.isEmpty()) {
                    return Advice.fallback(Fallback.UNMAPPED);
                }
                ips.put(node, ip.get());
            }
            ipsByShard.put(shard.getKey(), ips);
            pools.put(shard.getKey(), new ArrayList<>(ips.values()));
        }
        PoolKey key = new PoolKey(aggregator.get(), pools);
        if (key.nothingToDecide()) {
            return Advice.nothingToDecide();
        }
        Map<String, String> chosen;
        try {
            chosen = answer(key).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Advice.fallback(Fallback.DEADLINE);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HintSource.HintException hint) {
                warnNowAndThen(() -> "Keeping Solr's replica order (" + hint.fallback() + "): " + hint.getMessage());
                return Advice.fallback(hint.fallback());
            }
            if (cause instanceof RejectedExecutionException) {
                return Advice.fallback(Fallback.OVERLOADED);
            }
            warnNowAndThen(() -> "Keeping Solr's replica order: the query failed: " + cause);
            return Advice.fallback(Fallback.ERROR);
        }
        Map<String, Set<String>> preferred = new HashMap<>();
        for (Map.Entry<String, Map<String, String>> shard : ipsByShard.entrySet()) {
            String ip = chosen.get(shard.getKey());
            if (ip == null || !shard.getValue().containsValue(ip)) {
                warnNowAndThen(() -> "Keeping Solr's replica order: CloudTalk chose " + ip + " for shard "
                        + shard.getKey() + ", which holds none of its replicas (" + shard.getValue() + ")");
                return Advice.fallback(Fallback.NOT_A_REPLICA);
            }
            Set<String> nodes = new HashSet<>();
            shard.getValue().forEach((node, nodeIp) -> {
                if (nodeIp.equals(ip)) {
                    nodes.add(node);
                }
            });
            preferred.put(shard.getKey(), nodes);
        }
        return new Advice(preferred, Optional.empty());
    }

    /**
     * The cached answer (shard -> IP) for {@code key}, or a fresh query's. While an expired answer is being refreshed,
     * requests use it rather than wait (for at most one query's timeout): in steady state no request waits for the
     * server, and none falls back because the server was slow to refresh an answer it had already given.
     */
    private CompletableFuture<Map<String, String>> answer(PoolKey key) {
        long now = System.nanoTime();
        Entry cached = cache.get(key);
        if (cached != null && !cached.expired(now, config.cacheTtl())) {
            return served(cached, now, false);
        }
        if (cache.size() >= MAX_CACHED) {
            cache.values().removeIf(entry -> entry.expired(now, config.cacheTtl()));
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
        }
        Entry[] created = new Entry[1];
        Entry winner = cache.compute(key, (k, current) -> {
            if (current != null && !current.expired(now, config.cacheTtl())) {
                return current;
            }
            // A TTL of 0 asks for a fresh answer on every request: nothing stands in for it.
            boolean keepPrevious = current != null && !config.cacheTtl().isZero();
            created[0] = new Entry(keepPrevious ? current.lastAnswer() : null);
            return created[0];
        });
        if (winner == created[0]) {
            submit(key, winner);
        }
        return served(winner, now, winner == created[0]);
    }

    /**
     * What a request gets from {@code entry}, counted as a cache hit when it is an earlier answer: the entry's own
     * once arrived, or the one it refreshes ({@code asked}: this request started the entry's query).
     */
    private CompletableFuture<Map<String, String>> served(Entry entry, long now, boolean asked) {
        CompletableFuture<Map<String, String>> current = entry.current(now, config.queryTimeout());
        if (current != entry.answer || (!asked && current.isDone())) {
            metrics.cacheHit();
        }
        return current;
    }

    private void submit(PoolKey key, Entry entry) {
        ReplicaQuery query;
        try {
            query = ReplicaQuery.of(key, config.responseBytes(), config.diskReadBytes());
        } catch (RuntimeException e) {
            // Completed, so that the failure is served and counted until the TTL ends like any other answer: an entry
            // left in flight would never expire, and every request for the key would wait out its deadline.
            entry.complete(null, e);
            return;
        }
        try {
            queries.execute(() -> {
                long start = System.nanoTime();
                Map<String, String> byShard = null;
                Throwable failure = null;
                try {
                    Map<String, String> bindings = source.bindings(query.text(), config.queryTimeout());
                    if (!query.variables().containsAll(bindings.keySet())) {
                        // An answer to another query, or a server gone wrong: none of it can be trusted.
                        throw new HintSource.HintException(
                                Fallback.UNAVAILABLE,
                                "the answer binds variables the query does not have: " + bindings.keySet(),
                                null);
                    }
                    byShard = new HashMap<>();
                    for (int i = 0; i < query.shards().size(); i++) {
                        String ip = bindings.get(ReplicaQuery.variableOf(i));
                        if (ip != null) {
                            byShard.put(query.shards().get(i), ip);
                        }
                    }
                } catch (InterruptedException e) {
                    failure = e;
                    Thread.currentThread().interrupt();
                } catch (Exception | Error e) {
                    // An Error too: an entry left in flight would let its previous answer stand in forever.
                    failure = e;
                }
                // Counted before the answer is published, so that whoever sees the answer sees the query counted.
                metrics.queried(System.nanoTime() - start);
                entry.complete(failure == null ? Map.copyOf(byShard) : null, failure);
            });
        } catch (RejectedExecutionException e) {
            entry.complete(null, e);
        }
    }

    /** Stops the query pool and waits briefly for it, so that no thread outlives the plugin. */
    @Override
    public void close() {
        queries.shutdownNow();
        try {
            if (!queries.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("CloudTalk query threads still running 5 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cache.clear();
    }

    /**
     * A query's answer and when it arrived (0 while in flight), and the answer it refreshes (null when there was none
     * or it was a failure), which stands in for it until it arrives.
     */
    private static final class Entry {
        final CompletableFuture<Map<String, String>> answer = new CompletableFuture<>();
        /** The answer this entry refreshes, already complete: every request it serves shares it. */
        final CompletableFuture<Map<String, String>> previous;

        final long createdNanos = System.nanoTime();
        volatile long completedNanos;

        Entry(Map<String, String> previous) {
            this.previous = previous == null ? null : CompletableFuture.completedFuture(previous);
        }

        void complete(Map<String, String> value, Throwable error) {
            completedNanos = System.nanoTime();
            if (error == null) {
                answer.complete(value);
            } else {
                answer.completeExceptionally(error);
            }
        }

        boolean expired(long now, Duration ttl) {
            long completed = completedNanos;
            return completed != 0 && now - completed >= ttl.toNanos();
        }

        /**
         * This entry's answer once it has arrived; until then the one it refreshes, if any, for at most
         * {@code patience} (a query's timeout: a refresh that takes longer has gone wrong).
         */
        CompletableFuture<Map<String, String>> current(long now, Duration patience) {
            if (answer.isDone() || previous == null || now - createdNanos > patience.toNanos()) {
                return answer;
            }
            return previous;
        }

        /** The answer a refresh of this entry may stand on: its own if it succeeded. */
        Map<String, String> lastAnswer() {
            return answer.isDone() && !answer.isCompletedExceptionally() ? answer.getNow(null) : null;
        }
    }

    /**
     * Logs a fallback at most once per {@value #WARNING_INTERVAL_SECONDS} s, with how many were not: a busy node whose
     * CloudTalk server is down or wrong must not write a warning per search, nor stay silent at the default level.
     */
    private void warnNowAndThen(Supplier<String> message) {
        long since = unwarned.incrementAndGet();
        long due = nextWarning.get();
        long now = System.nanoTime();
        if (now - due >= 0
                && nextWarning.compareAndSet(due, now + TimeUnit.SECONDS.toNanos(WARNING_INTERVAL_SECONDS))) {
            unwarned.addAndGet(-since);
            log.warn("{} ({} such fallbacks since the last message)", message.get(), since);
        }
    }
}
