package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.testing.SchedulingProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, defect 1, against a running server on loopback with its default workers (16, at most 8 per tenant): a
 * query past its deadline is answered 503 within 50 ms of it, whether it is running or still waiting for a worker.
 * Tenants are client addresses: 127.0.0.1 to 127.0.0.5. Flow and exhaustive evaluation holds one of (processors - 1)
 * permits; refined has permits of its own.
 */
class DeadlineUnderLoadTest {
    private static final int CHAIN = 1000;
    private static final long GRACE_MILLIS = 50;

    @TempDir
    static Path temp;

    /**
     * 50 ms, plus twice the worst wake-up delay the machine imposed meanwhile: once on the server's event loop, once on
     * the test's client thread. On a quiet machine that is a few milliseconds.
     */
    private static long allowed(SchedulingProbe probe) {
        return GRACE_MILLIS + 2 * probe.worstMillis();
    }

    static CloudTalkServer server;
    static int port;
    static Path statusFile;

    @BeforeAll
    static void start() throws Exception {
        Path status = chainStatus(temp, CHAIN);
        statusFile = status;
        server = CloudTalkServer.start(ServerConfig.from(Map.of("status.file", status.toString(), "port", "0")));
        port = server.localAddress().getPort();
        warmUp();
    }

    /**
     * The timings below are those of a server in its steady state, not of its first thousand requests. Cold, the event
     * loop ran the HTTP and 503 paths in the interpreter: on a quiet 2-core machine the 503s of a burst left 11-55 ms
     * after their deadline (median 25 ms, 200 of them); after these requests, 5-27 ms (median 11 ms, 64 of them).
     * Pairs of requests from tenants other than the tests', one answered and one cut at its deadline: about 4 s.
     */
    private static void warmUp() throws IOException {
        String heavy = Coupled.rateChain(300);
        for (int i = 0; i < 1000; i++) {
            // Tenants of their own, in turn: one alone would be over its query rate on a machine twice this fast.
            String tenant = "127.0.0." + (10 + i % 8);
            assertThat(post(tenant, "evaluator=flow", "f1 10.8.0.1 -> 10.8.0.2 size 1M")
                            .status())
                    .isEqualTo(200);
            assertThat(post(tenant, "evaluator=flow&timeoutMs=1", heavy).body()).contains("TIMED_OUT");
        }
    }

    /** A status file in {@code dir} with the hosts of a chain of {@code flows} ({@link Coupled#chainHosts}). */
    static Path chainStatus(Path dir, int flows) throws IOException {
        Path status = dir.resolve("status.json");
        Files.writeString(
                status,
                Coupled.chainHosts(flows).entrySet().stream()
                        .map(
                                host ->
                                        "\"%s\": {\"nicRxCapacityBitsPerSecond\": %.0f, \"nicTxCapacityBitsPerSecond\": %.0f,"
                                                        .formatted(
                                                                host.getKey(),
                                                                8
                                                                        * host.getValue()
                                                                                .rxCapacity(),
                                                                8
                                                                        * host.getValue()
                                                                                .txCapacity())
                                                + " \"diskReadCapacityBytesPerSecond\": 1e9, \"diskWriteCapacityBytesPerSecond\": 1e9}")
                        .collect(Collectors.joining(",", "{\"hosts\": {", "}}")));
        return status;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aThousandFlowRateChainIsAnswered503ByItsDeadline() throws Exception {
        try (SchedulingProbe probe = new SchedulingProbe()) {
            Reply reply = post("127.0.0.1", "evaluator=flow&timeoutMs=1000", Coupled.rateChain(CHAIN));
            assertThat(reply.status()).isEqualTo(503);
            assertThat(reply.body()).isEqualTo("{\"code\":\"TIMED_OUT\",\"message\":\"no answer within 1000 ms\"}");
            assertThat(reply.millis()).isBetween(1000L, 1000 + allowed(probe));
        }
    }

    @Test
    void anotherTenantIsAnsweredByItsDeadlineWhileTwoTenantsHoldEveryWorker() throws Exception {
        // 300 flows of rate chain take the flow estimator seconds: 16 of them keep all 16 workers busy until 3 s.
        String heavy = Coupled.rateChain(300);
        ExecutorService clients = Executors.newCachedThreadPool();
        try (SchedulingProbe probe = new SchedulingProbe()) {
            List<Future<Reply>> heavyReplies = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String tenant = i % 2 == 0 ? "127.0.0.2" : "127.0.0.3";
                heavyReplies.add(clients.submit(() -> post(tenant, "evaluator=flow&timeoutMs=3000", heavy)));
            }
            Thread.sleep(500);
            List<Future<Reply>> victims = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String evaluator = i % 2 == 0 ? "heuristic" : "flow";
                victims.add(clients.submit(() -> post(
                        "127.0.0.4", "evaluator=" + evaluator + "&timeoutMs=1000", "f1 10.8.0.1 -> 10.8.0.2 size 1M")));
            }
            for (Future<Reply> victim : victims) {
                Reply reply = victim.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isIn(200, 503);
                assertThat(reply.millis()).as(reply.body()).isLessThanOrEqualTo(1000 + allowed(probe));
            }
            // The heavy queries were cut at their deadline: each alone takes the estimator seconds, sixteen of them on
            // two processors minutes. (Their sixteen 503s leave together, with as many threads waking at once on this
            // machine, so their timing to the millisecond is the other tests' business.)
            for (Future<Reply> heavyReply : heavyReplies) {
                Reply reply = heavyReply.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isEqualTo(503);
                assertThat(reply.body()).contains("TIMED_OUT");
                assertThat(reply.millis()).isBetween(3000L, 4000L);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * Refined, the default evaluator, searches on permits of its own: heavy flow and exhaustive queries holding every
     * processor permit delay neither its answers nor its search, while a flow query of the same victims, which needs
     * those permits, times out.
     */
    @Test
    void refinedQueriesAreAnsweredWhileHeavyQueriesHoldTheProcessorPermits() throws Exception {
        // Seconds of estimating for flow; for exhaustive, 190 bindings of a 101-flow rate chain: minutes.
        String heavyFlow = Coupled.rateChain(300);
        String heavyExhaustive = "X = Y = ("
                + String.join(
                        " ",
                        Coupled.chainHosts(CHAIN).keySet().stream()
                                .sorted()
                                .limit(20)
                                .toList()) + ")\n"
                + Coupled.rateChain(100) + "g1 X -> Y size 1G\n";
        ExecutorService clients = Executors.newCachedThreadPool();
        try (SchedulingProbe probe = new SchedulingProbe()) {
            List<Future<Reply>> heavyReplies = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String tenant = i % 2 == 0 ? "127.0.0.2" : "127.0.0.3";
                String parameters = (i < 3 ? "evaluator=flow" : "evaluator=exhaustive") + "&timeoutMs=5000";
                String query = i < 3 ? heavyFlow : heavyExhaustive;
                heavyReplies.add(clients.submit(() -> post(tenant, parameters, query)));
            }
            Thread.sleep(500);
            List<Future<Reply>> refined = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String tenant = i % 2 == 0 ? "127.0.0.4" : "127.0.0.5";
                refined.add(clients.submit(
                        () -> post(tenant, "timeoutMs=1000", "A = (10.8.0.2 10.8.0.3)\nf1 10.8.0.1 -> A size 1M")));
            }
            Future<Reply> flow = clients.submit(
                    () -> post("127.0.0.4", "evaluator=flow&timeoutMs=1000", "f1 10.8.0.1 -> 10.8.0.2 size 1M"));
            for (Future<Reply> victim : refined) {
                Reply reply = victim.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                // Searched and estimated: no note of a search cut short or of no permit in time.
                assertThat(reply.body()).contains("\"evaluator\":\"refined\"").doesNotContain("notes");
                assertThat(reply.body()).containsPattern("\"estimatedCompletionSeconds\":[0-9]");
                assertThat(reply.millis()).as(reply.body()).isLessThanOrEqualTo(1000 + allowed(probe));
            }
            Reply flowReply = flow.get(30, TimeUnit.SECONDS);
            assertThat(flowReply.status()).as(flowReply.body()).isEqualTo(503);
            for (Future<Reply> heavyReply : heavyReplies) {
                Reply reply = heavyReply.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isEqualTo(503);
                assertThat(reply.millis()).isGreaterThanOrEqualTo(5000L);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void aSmallerShareOfWorkersPerTenantLeavesWorkersForTheOthers() throws Exception {
        String heavy = Coupled.rateChain(300);
        ExecutorService clients = Executors.newCachedThreadPool();
        try (CloudTalkServer shared = CloudTalkServer.start(ServerConfig.from(Map.of(
                "status.file", statusFile.toString(), "port", "0", "workers", "8", "workers.per.tenant", "3")))) {
            int sharedPort = shared.localAddress().getPort();
            List<Future<Reply>> heavyReplies = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String tenant = i % 2 == 0 ? "127.0.0.2" : "127.0.0.3";
                heavyReplies.add(
                        clients.submit(() -> post(sharedPort, tenant, "evaluator=flow&timeoutMs=3000", heavy)));
            }
            Thread.sleep(500);
            // A fourth query of a tenant that has three in progress is refused at once.
            assertThat(post(sharedPort, "127.0.0.2", "evaluator=flow&timeoutMs=3000", heavy)
                            .status())
                    .isEqualTo(429);
            // Two of the eight workers are left: another tenant's default (refined) query is answered, not timed out.
            Reply reply = post(sharedPort, "127.0.0.4", "timeoutMs=1000", "f1 10.8.0.1 -> 10.8.0.2 size 1M");
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            for (Future<Reply> heavyReply : heavyReplies) {
                assertThat(heavyReply.get(30, TimeUnit.SECONDS).status()).isEqualTo(503);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * A server that stops answers every query it has: those queued for a worker and those running (the estimator stops
     * at its next check once interrupted) get 503 UNAVAILABLE with {@code Connection: close}, none a connection closed
     * without an answer.
     */
    @Test
    void aStoppingServerAnswersEveryQueryItHas503() throws Exception {
        String heavy = Coupled.rateChain(300);
        ExecutorService clients = Executors.newCachedThreadPool();
        try {
            CloudTalkServer stopping = CloudTalkServer.start(ServerConfig.from(Map.of(
                    "status.file", statusFile.toString(), "port", "0", "workers", "4", "workers.per.tenant", "4")));
            int stoppingPort = stopping.localAddress().getPort();
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String tenant = "127.0.0." + (2 + i % 4);
                replies.add(clients.submit(
                        () -> post(stoppingPort, tenant, "evaluator=flow&timeoutMs=30000", heavy, true)));
            }
            Thread.sleep(700); // four running (one estimating, three waiting for its permit), four queued
            long start = System.nanoTime();
            stopping.close();
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(4_000L);
            stopping.close(); // closing again does nothing
            for (Future<Reply> reply : replies) {
                Reply stopped = reply.get(30, TimeUnit.SECONDS);
                assertThat(stopped.status()).as(stopped.body()).isEqualTo(503);
                assertThat(stopped.body())
                        .isEqualTo("{\"code\":\"UNAVAILABLE\",\"message\":\"the server is stopping\"}");
                // A keep-alive client learns that the connection ends, rather than sending into the close.
                assertThat(stopped.closes()).isTrue();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * A response: status, body, the time from sending the request to reading the whole response, and whether it said
     * {@code Connection: close}.
     */
    record Reply(int status, String body, long millis, boolean closes) {}

    /** One POST /v1/query from the given local address, on a connection of its own. */
    static Reply post(String from, String parameters, String query) throws IOException {
        return post(port, from, parameters, query);
    }

    static Reply post(int serverPort, String from, String parameters, String query) throws IOException {
        return post(serverPort, from, parameters, query, false);
    }

    /** @param keepAlive whether the request leaves its connection open (else it asks to close it) */
    static Reply post(int serverPort, String from, String parameters, String query, boolean keepAlive)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", serverPort, InetAddress.getByName(from), 0)) {
            socket.setSoTimeout(30_000);
            // One write, without Nagle: a body written after the head waited for the server's delayed ACK (40 ms on
            // Linux) now and then, and the server's clock starts only once it has the whole request.
            socket.setTcpNoDelay(true);
            int length = query.getBytes(StandardCharsets.UTF_8).length;
            byte[] request = ("POST /v1/query?" + parameters + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + length
                            + (keepAlive ? "" : "\r\nConnection: close") + "\r\n\r\n" + query)
                    .getBytes(StandardCharsets.UTF_8);
            long start = System.nanoTime();
            socket.getOutputStream().write(request);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String head = readHead(in);
            int answerLength = Integer.parseInt(head.replaceAll("(?si).*\r\ncontent-length: *(\\d+).*", "$1"));
            String responseBody = new String(in.readNBytes(answerLength), StandardCharsets.UTF_8);
            long millis = (System.nanoTime() - start) / 1_000_000;
            boolean closes = head.toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close\r\n");
            return new Reply(Integer.parseInt(head.substring(9, 12)), responseBody, millis, closes);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed in the response head: " + head);
            }
            head.append((char) c);
        }
        return head.toString();
    }
}
