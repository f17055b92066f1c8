package org.cloudtalk.solr.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.cloudtalk.client.CloudTalkClient;
import org.junit.jupiter.api.Test;

/** The advisor without Solr: a scripted hint source, real threads, real deadlines. */
class ReplicaAdvisorTest {
    private static final String AGG = "agg:8983_solr";
    private static final Map<String, List<String>> SHARDS = Map.of(
            "shard1", List.of("a:8983_solr", "b:8983_solr"),
            "shard2", List.of("c:8983_solr", "a:8983_solr"));
    private static final String HOSTS = "agg=10.0.0.9,a=10.0.0.1,b=10.0.0.2,c=10.0.0.3";

    /** Answers from a script, one entry per call (the last repeats); records each query text. */
    static final class ScriptedSource implements HintSource {
        final List<String> queries = new CopyOnWriteArrayList<>();
        final List<Object> script;
        volatile CountDownLatch gate;

        ScriptedSource(Object... script) {
            this.script = List.of(script);
        }

        @Override
        public Map<String, String> bindings(String queryText, Duration timeout)
                throws HintException, InterruptedException {
            queries.add(queryText);
            if (gate != null) {
                gate.await(5, TimeUnit.SECONDS);
            }
            Object next = script.get(Math.min(queries.size(), script.size()) - 1);
            if (next instanceof HintException e) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            Map<String, String> answer = (Map<String, String>) next;
            return answer;
        }
    }

    static final class CountingMetrics implements AdvisorMetrics {
        final AtomicLong queries = new AtomicLong();
        final AtomicLong cacheHits = new AtomicLong();
        final AtomicLong used = new AtomicLong();
        final Map<Fallback, AtomicLong> fallbacks = new EnumMap<>(Fallback.class);

        CountingMetrics() {
            for (Fallback cause : Fallback.values()) {
                fallbacks.put(cause, new AtomicLong());
            }
        }

        @Override
        public void queried(long nanos) {
            queries.incrementAndGet();
        }

        @Override
        public void cacheHit() {
            cacheHits.incrementAndGet();
        }

        @Override
        public void answerUsed() {
            used.incrementAndGet();
        }

        @Override
        public void fellBack(Fallback cause) {
            fallbacks.get(cause).incrementAndGet();
        }
    }

    final CountingMetrics metrics = new CountingMetrics();

    static AdvisorConfig config(String... extra) {
        Map<String, String> values = new HashMap<>();
        values.put(AdvisorConfig.HOST_MAP, HOSTS);
        values.put(AdvisorConfig.DEADLINE_MS, "2000");
        for (int i = 0; i < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        return AdvisorConfig.from(values);
    }

    @Test
    void asksOnceForAllShardsAndPutsTheChosenReplicasFirst() {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            Advice advice = advisor.advise(AGG, SHARDS);

            assertThat(advice.fallback()).isEmpty();
            assertThat(advice.preferredNodes())
                    .isEqualTo(Map.of("shard1", Set.of("b:8983_solr"), "shard2", Set.of("a:8983_solr")));
            assertThat(source.queries).hasSize(1);
            // One variable per shard over its replicas' hosts, each sending to the aggregator; shared, as two
            // shards may be read from one host.
            assertThat(source.queries.get(0))
                    .contains("shared s0 = (10.0.0.1 10.0.0.2)")
                    .contains("shared s1 = (10.0.0.1 10.0.0.3)")
                    .contains("f1 s0 -> 10.0.0.9 size 10K")
                    .contains("f2 s1 -> 10.0.0.9 size 10K");

            List<String> solrOrder = new ArrayList<>(List.of("c:8983_solr", "x:8983_solr", "a:8983_solr"));
            advice.order("shard2", solrOrder, node -> node);
            assertThat(solrOrder).containsExactly("a:8983_solr", "c:8983_solr", "x:8983_solr");
            List<String> undecided = new ArrayList<>(List.of("c:8983_solr", "a:8983_solr"));
            advice.order("shard9", undecided, node -> node);
            assertThat(undecided).containsExactly("c:8983_solr", "a:8983_solr");
            assertThat(metrics.used).hasValue(1);
            assertThat(metrics.queries).hasValue(1);
        }
    }

    @Test
    void aShardWithNoReplicaToChooseIsLeftOutOfTheQuery() {
        // Solr passes an empty list for a shard whose replicas are all down: the other shards are still advised, and
        // no request waits out its deadline for a query that could not be built.
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2"));
        Map<String, List<String>> shards = Map.of("shard1", List.of("a:8983_solr", "b:8983_solr"), "shard2", List.of());
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(AdvisorConfig.DEADLINE_MS, "100"), source, metrics)) {
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                Advice advice = advisor.advise(AGG, shards);
                assertThat(advice.fallback()).isEmpty();
                assertThat(advice.preferredNodes()).isEqualTo(Map.of("shard1", Set.of("b:8983_solr")));
                assertThat(System.nanoTime() - start)
                        .isLessThan(Duration.ofMillis(100).toNanos());
            }
            assertThat(source.queries).hasSize(1);
            assertThat(source.queries.get(0)).doesNotContain("s1");
        }
    }

    @Test
    void reusesAnAnswerWithinTheTtlAndAsksAgainAfterIt() throws Exception {
        ScriptedSource source = new ScriptedSource(
                Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"), Map.of("s0", "10.0.0.1", "s1", "10.0.0.3"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(AdvisorConfig.CACHE_TTL_MS, "200"), source, metrics)) {
            Advice first = advisor.advise(AGG, SHARDS);
            Advice second = advisor.advise(AGG, SHARDS);
            assertThat(second).isEqualTo(first);
            assertThat(source.queries).hasSize(1);
            assertThat(metrics.cacheHits).hasValue(1);

            Thread.sleep(300);
            advisor.advise(AGG, SHARDS);
            assertThat(awaitShard2(advisor, "c:8983_solr")).isTrue();
            assertThat(source.queries).hasSize(2);
        }
    }

    @Test
    void whileAnExpiredAnswerIsRefreshedRequestsUseItInsteadOfWaiting() throws Exception {
        ScriptedSource source = new ScriptedSource(
                Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"), Map.of("s0", "10.0.0.1", "s1", "10.0.0.3"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(
                config(AdvisorConfig.DEADLINE_MS, "200", AdvisorConfig.CACHE_TTL_MS, "50"), source, metrics)) {
            Advice first = advisor.advise(AGG, SHARDS);
            assertThat(first.fallback()).isEmpty();
            Thread.sleep(100);
            // The refresh hangs: requests keep the answer they had without waiting for their deadline, and share
            // one query.
            source.gate = new CountDownLatch(1);
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                Advice during = advisor.advise(AGG, SHARDS);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(150));
                assertThat(during).isEqualTo(first);
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (source.queries.size() < 2 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(source.queries).hasSize(2);
            assertThat(metrics.fallbacks.get(Fallback.DEADLINE)).hasValue(0);

            source.gate.countDown();
            assertThat(awaitShard2(advisor, "c:8983_solr")).isTrue();
        }
    }

    @Test
    void withoutACacheEveryRequestWaitsForItsOwnAnswer() {
        ScriptedSource source = new ScriptedSource(
                Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"), Map.of("s0", "10.0.0.1", "s1", "10.0.0.3"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(
                config(AdvisorConfig.DEADLINE_MS, "2000", AdvisorConfig.CACHE_TTL_MS, "0"), source, metrics)) {
            assertThat(advisor.advise(AGG, SHARDS).preferredNodes().get("shard2"))
                    .containsExactly("a:8983_solr");
            assertThat(advisor.advise(AGG, SHARDS).preferredNodes().get("shard2"))
                    .containsExactly("c:8983_solr");
            assertThat(source.queries).hasSize(2);
        }
    }

    @Test
    void aFailedAnswerIsNotKeptWhileItIsRefreshed() throws Exception {
        ScriptedSource source = new ScriptedSource(
                new HintSource.HintException(Fallback.UNAVAILABLE, "down", null),
                Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(
                config(AdvisorConfig.DEADLINE_MS, "200", AdvisorConfig.CACHE_TTL_MS, "50"), source, metrics)) {
            assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.UNAVAILABLE);
            Thread.sleep(100);
            source.gate = new CountDownLatch(1);
            // Nothing to stand in for the refresh: the request waits its deadline and keeps Solr's order.
            assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.DEADLINE);
            source.gate.countDown();
        }
    }

    /** Whether advice puts {@code node} first for shard2 within 5 s (a refreshed answer lands asynchronously). */
    private static boolean awaitShard2(ReplicaAdvisor advisor, String node) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < until) {
            if (Set.of(node).equals(advisor.advise(AGG, SHARDS).preferredNodes().get("shard2"))) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    @Test
    void fallsBackAtTheDeadlineAndTheLateAnswerServesTheNextRequest() throws Exception {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        source.gate = new CountDownLatch(1);
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(
                config(AdvisorConfig.DEADLINE_MS, "5", AdvisorConfig.CACHE_TTL_MS, "60000"), source, metrics)) {
            long start = System.nanoTime();
            Advice late = advisor.advise(AGG, SHARDS);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1000));
            assertThat(late.fallback()).contains(Fallback.DEADLINE);
            assertThat(late.preferredNodes()).isEmpty();

            source.gate.countDown();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (metrics.queries.get() == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(advisor.advise(AGG, SHARDS).fallback()).isEmpty();
            assertThat(source.queries).hasSize(1);
            assertThat(metrics.fallbacks.get(Fallback.DEADLINE)).hasValue(1);
        }
    }

    @Test
    void aServerErrorIsAFallbackRememberedForTheTtl() {
        ScriptedSource source =
                new ScriptedSource(new HintSource.HintException(Fallback.UNAVAILABLE, "connection refused", null));
        try (ReplicaAdvisor advisor =
                new ReplicaAdvisor(config(AdvisorConfig.CACHE_TTL_MS, "60000"), source, metrics)) {
            assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.UNAVAILABLE);
            assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.UNAVAILABLE);
            assertThat(source.queries).hasSize(1);
            assertThat(metrics.fallbacks.get(Fallback.UNAVAILABLE)).hasValue(2);
        }
    }

    @Test
    void anAnswerNamingAHostWithoutTheShardsReplicaIsRefused() {
        // 10.0.0.3 holds shard2, not shard1.
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.3", "s1", "10.0.0.1"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            Advice advice = advisor.advise(AGG, SHARDS);
            assertThat(advice.fallback()).contains(Fallback.NOT_A_REPLICA);
            assertThat(advice.preferredNodes()).isEmpty();
        }
    }

    /** An answer binding a variable the query does not have answers another query: none of it is used. */
    @Test
    void anAnswerWithVariablesTheQueryDoesNotHaveIsRefused() {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1", "zz9", "10.0.0.3"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            Advice advice = advisor.advise(AGG, SHARDS);
            assertThat(advice.fallback()).contains(Fallback.UNAVAILABLE);
            assertThat(advice.preferredNodes()).isEmpty();
        }
    }

    @Test
    void anAnswerMissingAShardIsRefused() {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.NOT_A_REPLICA);
        }
    }

    @Test
    void anUnmappedNodeKeepsSolrsOrderWithoutAsking() {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            Advice advice = advisor.advise(AGG, Map.of("shard1", List.of("a:8983_solr", "nohost.invalid:8983_solr")));
            assertThat(advice.fallback()).contains(Fallback.UNMAPPED);
            assertThat(source.queries).isEmpty();
        }
    }

    @Test
    void nothingToDecideWhenEveryShardHasOneHost() {
        ScriptedSource source = new ScriptedSource(Map.of());
        try (ReplicaAdvisor advisor = new ReplicaAdvisor(config(), source, metrics)) {
            Advice advice = advisor.advise(AGG, Map.of("shard1", List.of("a:8983_solr"), "shard2", List.of()));
            assertThat(advice).isEqualTo(new Advice(Map.of(), Optional.empty()));
            assertThat(source.queries).isEmpty();
            assertThat(metrics.fallbacks.values()).allMatch(count -> count.get() == 0);
        }
    }

    @Test
    void theDiskReadIsPartOfTheQueryWhenConfigured() {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        try (ReplicaAdvisor advisor =
                new ReplicaAdvisor(config(AdvisorConfig.DISK_READ_BYTES, "1048576"), source, metrics)) {
            advisor.advise(AGG, SHARDS);
            assertThat(source.queries.get(0)).contains("d1 disk -> s0 size 1M rate r(f1)");
        }
    }

    @Test
    void aServerThatStallsInItsAnswerHoldsAQueryForItsTimeoutOnly() throws Exception {
        // Every connection gets the headers of an answer and its first byte, then nothing: a hung server, or a host
        // gone after it began to answer. A query held for good would keep its cache entry in flight, and every later
        // request for the same replicas would fall back at its deadline without asking again.
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket socket = listener.accept();
                        held.add(socket);
                        socket.getOutputStream()
                                .write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{"
                                        .getBytes(StandardCharsets.US_ASCII));
                    }
                } catch (IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            AdvisorConfig config = config(
                    AdvisorConfig.SERVER, "http://127.0.0.1:" + listener.getLocalPort(),
                    AdvisorConfig.DEADLINE_MS, "5",
                    AdvisorConfig.QUERY_TIMEOUT_MS, "200",
                    AdvisorConfig.CACHE_TTL_MS, "100");
            CloudTalkClient client = new CloudTalkClient(config.server(), config.queryTimeout());
            try (ReplicaAdvisor advisor =
                    new ReplicaAdvisor(config, new ClientHintSource(client, config.evaluator()), metrics)) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (metrics.queries.get() < 2 && System.nanoTime() < until) {
                    assertThat(advisor.advise(AGG, SHARDS).fallback()).contains(Fallback.DEADLINE);
                    Thread.sleep(20);
                }
            }
            assertThat(metrics.queries.get()).as("queries that ended").isGreaterThanOrEqualTo(2);
            assertThat(held).as("connections, one per query").hasSizeGreaterThanOrEqualTo(2);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void closeLeavesNoQueryThread() throws Exception {
        ScriptedSource source = new ScriptedSource(Map.of("s0", "10.0.0.2", "s1", "10.0.0.1"));
        source.gate = new CountDownLatch(1);
        ReplicaAdvisor advisor = new ReplicaAdvisor(config(AdvisorConfig.DEADLINE_MS, "1"), source, metrics);
        advisor.advise(AGG, SHARDS); // leaves a query blocked in the source
        advisor.close();
        // The pool has terminated when close returns; its last thread may take a moment more to end.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (queryThreadAlive() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(queryThreadAlive()).isFalse();
    }

    private static boolean queryThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.isAlive() && thread.getName().startsWith("cloudtalk-solr-query"));
    }
}
