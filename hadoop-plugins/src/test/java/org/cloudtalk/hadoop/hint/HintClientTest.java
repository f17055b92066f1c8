package org.cloudtalk.hadoop.hint;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.cloudtalk.hadoop.testing.MisbehavingServer;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hint client against real sockets: answers in order, and every way of not answering costs only the deadline. */
class HintClientTest {
    private static final List<String> REPLICAS = List.of("10.0.0.1", "10.0.0.2", "10.0.0.3");
    private static final Query READ =
            QueryBuilder.replicaRead(REPLICAS, "10.0.0.9", 256 << 20).build();

    @TempDir
    Path dir;

    @Test
    void ordersTheCandidatesBoundHostFirst() throws Exception {
        try (ControlledCloudTalk cloudTalk =
                ControlledCloudTalk.start(dir, Set.of("10.0.0.9", "10.0.0.1", "10.0.0.2", "10.0.0.3"))) {
            cloudTalk.load(Set.of("10.0.0.9", "10.0.0.3"), Set.of("10.0.0.1", "10.0.0.2"));
            HintClient client = client(cloudTalk.uri(), 5000, 4);

            Optional<List<String>> order = client.preferenceOrder(READ, Set.copyOf(REPLICAS));

            assertThat(order).isPresent();
            assertThat(order.get()).hasSize(3).startsWith("10.0.0.3").containsExactlyInAnyOrderElementsOf(REPLICAS);
            assertThat(client.metrics().answersUsed()).isEqualTo(1);
            assertThat(client.metrics().queries()).isEqualTo(1);
        }
    }

    @Test
    void aSilentServerCostsTheDeadlineAndCountsTimeouts() throws Exception {
        int port = freePort();
        try (MisbehavingServer silent = MisbehavingServer.silent(port)) {
            HintClient client = client("http://127.0.0.1:" + port, 5, 16);
            // The first call loads classes and initialises logging (its warning): a running daemon has done that.
            assertThat(client.ask(READ)).isEmpty();
            long slowest = 0;
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                assertThat(client.ask(READ)).isEmpty();
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            assertThat(client.metrics().fallbacks(Fallback.TIMEOUT)).isEqualTo(21);
            // 5 ms deadline; the margin is for a loaded 2-core machine's scheduling, not for the server.
            assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofMillis(250));
        }
    }

    @Test
    void aServerThatIsDownCountsUnavailable() throws Exception {
        HintClient client = client("http://127.0.0.1:" + freePort(), 1000, 4);

        assertThat(client.ask(READ)).isEmpty();

        assertThat(client.metrics().fallbacks(Fallback.UNAVAILABLE)).isEqualTo(1);
    }

    @Test
    void anAnswerNamingANonCandidateOrUnreadableCountsBadAnswer() throws Exception {
        int port = freePort();
        String lie = "{\"bindings\":{\"src\":\"10.0.0.7\"},\"evaluator\":\"heuristic\","
                + "\"estimatedCompletionSeconds\":null,"
                + "\"status\":{\"asked\":3,\"answered\":3,\"reused\":0,\"sampled\":false},\"elapsedMicros\":10}";
        HintClient client = client("http://127.0.0.1:" + port, 1000, 4);
        try (MisbehavingServer liar = MisbehavingServer.answering(port, lie)) {
            assertThat(client.preferenceOrder(READ, Set.copyOf(REPLICAS))).isEmpty();
        }
        try (MisbehavingServer garbage = MisbehavingServer.answering(port, "{\"bindings\":")) {
            assertThat(client.preferenceOrder(READ, Set.copyOf(REPLICAS))).isEmpty();
        }
        // A candidate for the query's own variable, and one more the query does not have: not an answer to it.
        try (MisbehavingServer extra = MisbehavingServer.answering(
                port, lie.replace("{\"src\":\"10.0.0.7\"}", "{\"src\":\"10.0.0.1\",\"zz9\":\"10.0.0.2\"}"))) {
            assertThat(client.preferenceOrder(READ, Set.copyOf(REPLICAS))).isEmpty();
        }
        assertThat(client.metrics().fallbacks(Fallback.BAD_ANSWER)).isEqualTo(3);
        assertThat(client.metrics().answersUsed()).isZero();
    }

    @Test
    void callersBeyondTheThreadLimitFallBackAtOnce() throws Exception {
        int port = freePort();
        try (MisbehavingServer silent = MisbehavingServer.silent(port)) {
            HintClient client = client("http://127.0.0.1:" + port, 2000, 1);
            CompletableFuture<Optional<?>> first = CompletableFuture.supplyAsync(() -> client.ask(READ));
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (silent.accepted() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(silent.accepted())
                    .as("the first query is waiting on the server")
                    .isOne();

            long start = System.nanoTime();
            assertThat(client.ask(READ)).isEmpty();

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(250));
            assertThat(client.metrics().fallbacks(Fallback.BUSY)).isOne();
            assertThat(first.get()).isEmpty();
        }
    }

    @Test
    void aFailingTaskOfTheHttpClientStaysInItsExecutorAndTheNextQueryIsAnswered() throws Exception {
        List<String> ran = new java.util.ArrayList<>();
        HintClient.runHere(() -> {
            ran.add("first");
            throw new IllegalStateException("a task failed");
        });
        HintClient.runHere(() -> ran.add("second"));
        assertThat(ran).containsExactly("first", "second");

        try (ControlledCloudTalk cloudTalk =
                ControlledCloudTalk.start(dir, Set.of("10.0.0.9", "10.0.0.1", "10.0.0.2", "10.0.0.3"))) {
            HintClient client = client(cloudTalk.uri(), 5000, 4);
            for (int i = 0; i < 20; i++) {
                assertThat(client.ask(READ)).as("query %d", i).isPresent();
            }
            assertThat(client.metrics().queries()).isEqualTo(20);
        }
    }

    @Test
    void afterAFailureTheServerIsLeftAloneForTheBackOff() throws Exception {
        HintClient client = client("http://127.0.0.1:" + freePort(), 1000, 4, 60_000);

        for (int i = 0; i < 5; i++) {
            assertThat(client.ask(READ)).isEmpty();
        }

        assertThat(client.metrics().fallbacks(Fallback.UNAVAILABLE)).isOne();
        assertThat(client.metrics().fallbacks(Fallback.BACKOFF)).isEqualTo(4);
        assertThat(client.metrics().queries()).isOne();
    }

    private static HintClient client(String uri, long deadlineMs, int threads) {
        return client(uri, deadlineMs, threads, 0);
    }

    private static HintClient client(String uri, long deadlineMs, int threads, long backoffMs) {
        HintSettings settings = new HintSettings(
                URI.create(uri),
                Duration.ofMillis(deadlineMs),
                EvaluatorName.HEURISTIC,
                threads,
                Duration.ofMillis(backoffMs),
                Duration.ofSeconds(60));
        return new HintClient("test", settings, HintMetrics.register("HintClientTest", "test"));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
