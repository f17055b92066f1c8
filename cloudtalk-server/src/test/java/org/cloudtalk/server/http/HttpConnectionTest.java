package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connection handling of the API over real sockets: caps, deadlines, pipelining and broken requests. */
class HttpConnectionTest {
    private static final int MAX_CONNECTIONS = 4;
    private static final Duration DEADLINE = Duration.ofMillis(600);
    private static final String QUERY = "A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 1M";

    /** Knows every host as idle; each gather takes {@code delayMillis}, to make a query slow on purpose. */
    static final class SlowStatus implements StatusSource {
        volatile long delayMillis;

        @Override
        public Gathered gather(Set<Address> addresses, Duration wait) throws InterruptedException {
            Thread.sleep(delayMillis);
            HostLoad idle = new HostLoad(1e8, 0, 1e8, 0, 1e8, 0, 1e8, 0);
            Map<String, HostLoad> loads = new java.util.HashMap<>();
            addresses.forEach(address -> loads.put(address.text(), idle));
            return new Gathered(new ClusterState(loads), addresses.size(), addresses.size(), 0);
        }
    }

    final SlowStatus status = new SlowStatus();
    ExecutorService workers;
    ServerMetrics metrics;
    HttpApiServer server;
    int port;

    @BeforeEach
    void start() throws Exception {
        QueryService service = new QueryService(
                status,
                status,
                Duration.ofMillis(50),
                TenantLimits.DEFAULT,
                Sampling.DEFAULT,
                new Reservations(Duration.ZERO));
        workers = Executors.newFixedThreadPool(4);
        metrics = new ServerMetrics(() -> 0);
        ApiHandler handler = new ApiHandler(
                service, new Admission(TenantLimits.DEFAULT, 4), workers, metrics, Duration.ofSeconds(5));
        server = HttpApiServer.start(
                new InetSocketAddress("127.0.0.1", 0),
                new ApiChannelInitializer(handler, 4096, new HttpLimits(MAX_CONNECTIONS, DEADLINE)),
                1);
        port = server.localAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
        workers.shutdownNow();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        status.delayMillis = 300;
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write((post("/v1/query", QUERY)
                            + get("/healthz")
                            + post("/v1/query?evaluator=flow", QUERY)
                            + get("/healthz"))
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            List<String> bodies = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Response response = read(in);
                assertThat(response.status()).isEqualTo(200);
                bodies.add(response.body());
            }
            assertThat(bodies.get(0)).contains("\"evaluator\":\"refined\"");
            assertThat(bodies.get(1)).isEqualTo("{\"status\":\"ok\"}");
            assertThat(bodies.get(2)).contains("\"evaluator\":\"flow\"");
            assertThat(bodies.get(3)).isEqualTo("{\"status\":\"ok\"}");
        }
    }

    @Test
    void halfClosedClientStillGetsEveryPipelinedAnswer() throws Exception {
        status.delayMillis = 100;
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write((post("/v1/query", QUERY) + get("/healthz")).getBytes(StandardCharsets.UTF_8));
            socket.shutdownOutput();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            assertThat(read(in).body()).contains("\"bindings\"");
            assertThat(read(in).body()).isEqualTo("{\"status\":\"ok\"}");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aClientThatNeverReadsItsAnswersIsNotReadFromEitherAndOthersAreStillServed() throws Exception {
        // Padded requests: kernel buffers fill with few of them once the server stops reading.
        byte[] request = ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + "p".repeat(3_000) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        Socket greedy = new Socket();
        greedy.setReceiveBufferSize(4096);
        greedy.connect(new InetSocketAddress("127.0.0.1", port));
        greedy.setSoTimeout(10_000);
        java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = greedy.getOutputStream();
                while (sent.get() < 200_000) {
                    out.write(request);
                    sent.incrementAndGet();
                }
            } catch (IOException closed) {
                // the test closed the socket
            }
        });
        writer.setDaemon(true);
        writer.start();
        try {
            // A server that kept reading would take all 200,000 (600 MB) and hold their answers; one that stops
            // reading stalls the writer once the kernel's buffers are full.
            // Stalled: no progress for a whole second (the kernel grows a socket's buffers for a while, letting a few
            // more requests through after shorter pauses).
            long before = -1;
            for (int i = 0; i < 30 && sent.get() != before; i++) {
                before = sent.get();
                Thread.sleep(1000);
            }
            long stalledAt = sent.get();
            assertThat(stalledAt).isLessThan(200_000);
            Thread.sleep(500);
            assertThat(sent.get()).isEqualTo(stalledAt);

            try (Socket other = connect()) {
                other.getOutputStream().write(get("/healthz").getBytes(StandardCharsets.US_ASCII));
                assertThat(read(new BufferedInputStream(other.getInputStream())).status())
                        .isEqualTo(200);
            }

            // Every request it did send is answered once it reads, in order and none lost.
            InputStream in = new BufferedInputStream(greedy.getInputStream());
            for (long answered = 0; answered < stalledAt; answered++) {
                assertThat(read(in).body()).isEqualTo("{\"status\":\"ok\"}");
            }
        } finally {
            greedy.close();
            writer.join(10_000);
        }
    }

    @Test
    void badPercentEncodingIsA400AndTheConnectionStaysUsable() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(post("/v1/query?evaluator=%zz", QUERY).getBytes(StandardCharsets.UTF_8));
            Response bad = read(in);
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.body()).contains("\"code\":\"BAD_REQUEST\"").contains("percent-encoding");
            out.write(get("/heal%G1thz").getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).status()).isEqualTo(400);
            out.write(get("/healthz").getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).status()).isEqualTo(200);
        }
    }

    /** RFC 9112 §3.2.2: a server accepts a request target in absolute form, as a proxy would send it. */
    @Test
    void anAbsoluteFormTargetIsServedLikeItsPath() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write((get("http://127.0.0.1:" + port + "/healthz")
                            + post("HTTP://localhost:" + port + "/v1/query?evaluator=heuristic", QUERY)
                            + get("http://127.0.0.1:" + port + "/heal%zzthz")
                            + get("http://[bad/healthz"))
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).body()).isEqualTo("{\"status\":\"ok\"}");
            assertThat(read(in).body()).contains("\"bindings\"").contains("\"evaluator\":\"heuristic\"");
            assertThat(read(in).status()).isEqualTo(400);
            Response notUri = read(in);
            assertThat(notUri.status()).isEqualTo(400);
            assertThat(notUri.body()).contains("not a URI");
        }
    }

    /** HEAD gets GET's status and headers, no body: the next pipelined answer follows at once. */
    @Test
    void headIsAnsweredLikeGetWithoutABody() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + get("/healthz"))
                    .getBytes(StandardCharsets.US_ASCII));
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: 15");
            Response get = read(in);
            assertThat(get.status()).isEqualTo(200);
            assertThat(get.body()).isEqualTo("{\"status\":\"ok\"}");
            out.write("HEAD /v1/query HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(in)).startsWith("HTTP/1.1 405").containsIgnoringCase("allow: POST");
        }
    }

    /**
     * RFC 9112 §6.1: a request with both Transfer-Encoding and Content-Length is read as chunked, answered, and then
     * its connection closes, so that what follows it is never read with framing a proxy in front may disagree on.
     */
    @Test
    void aRequestWithBothLengthsIsAnsweredThenTheConnectionCloses() throws Exception {
        byte[] query = QUERY.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write(("POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                                    + "Transfer-Encoding: chunked\r\n\r\n"
                                    + Integer.toHexString(query.length) + "\r\n" + QUERY + "\r\n0\r\n\r\n"
                                    + get("/healthz"))
                            .getBytes(StandardCharsets.UTF_8));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).contains("\"bindings\"");
            assertThat(response.headers()).containsIgnoringCase("connection: close");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /** So does one with another Transfer-Encoding beside Content-Length, or with a Transfer-Encoding in HTTP/1.0. */
    @Test
    void aTransferEncodingBesideALengthOrInHttp10ClosesTheConnectionAfterItsAnswer() throws Exception {
        byte[] query = QUERY.getBytes(StandardCharsets.UTF_8);
        String chunked = Integer.toHexString(query.length) + "\r\n" + QUERY + "\r\n0\r\n\r\n";
        List<String> requests = List.of(
                "POST /v1/query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\nContent-Length: " + query.length
                        + "\r\n\r\n" + QUERY,
                "POST /v1/query HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked);
        for (String request : requests) {
            try (Socket socket = connect()) {
                socket.getOutputStream().write((request + get("/healthz")).getBytes(StandardCharsets.UTF_8));
                InputStream in = new BufferedInputStream(socket.getInputStream());
                Response response = read(in);
                assertThat(response.status()).as(request).isEqualTo(200);
                assertThat(in.read()).as(request).isEqualTo(-1);
            }
        }
    }

    /** An HTTP/2 client with prior knowledge gets one 505 that says which HTTP the API speaks, then the close. */
    @Test
    void anHttp2PrefaceIsA505ThenTheConnectionCloses() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\u0012\u0004\0\0\0\0\0"
                            .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertThat(response.status()).isEqualTo(505);
            assertThat(response.body())
                    .contains("HTTP_VERSION_NOT_SUPPORTED")
                    .contains("HTTP/2.0 is not supported; the API speaks HTTP/1.1");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /** An interim 100 Continue is no request's answer: HEAD answers after it still go without a body. */
    @Test
    void headAnswersStayInStepAfterAContinue() throws Exception {
        byte[] query = QUERY.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(("POST /v1/query HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: " + query.length
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(in)).startsWith("HTTP/1.1 100");
            out.write((QUERY + "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + get("/healthz"))
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).body()).contains("\"bindings\"");
            assertThat(readHead(in)).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: 15");
            assertThat(read(in).body()).isEqualTo("{\"status\":\"ok\"}");
        }
    }

    @Test
    void overLongHeaderIsA400ThenTheConnectionCloses() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write(("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(9_000) + "\r\n\r\n"
                                    + get("/healthz"))
                            .getBytes(StandardCharsets.US_ASCII));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.headers()).containsIgnoringCase("connection: close");
            assertThat(response.body()).contains("\"code\":\"BAD_REQUEST\"").contains("too long");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void expectContinueOverTheLimitIsTheApis413ThenTheConnectionCloses() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write(("POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n"
                                    + "Expect: 100-continue\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            Response response = read(in);
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.headers()).containsIgnoringCase("content-type: application/json");
            assertThat(response.body())
                    .startsWith("{\"code\":\"TOO_LARGE\",\"message\":\"request body over 4096 bytes");
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void aRefusalPipelinedBehindAQueryWaitsForItsAnswer() throws Exception {
        status.delayMillis = 300;
        Map<String, Integer> refusals = Map.of(
                "POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(5_000),
                413,
                "POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: foo\r\n\r\nhello",
                417);
        for (Map.Entry<String, Integer> refusalOf : refusals.entrySet()) {
            String refused = refusalOf.getKey();
            try (Socket socket = connect()) {
                socket.getOutputStream()
                        .write((post("/v1/query", QUERY) + refused).getBytes(StandardCharsets.US_ASCII));
                InputStream in = new BufferedInputStream(socket.getInputStream());
                Response answer = read(in);
                assertThat(answer.status()).as(answer.body()).isEqualTo(200);
                assertThat(answer.body()).contains("\"bindings\"");
                Response refusal = read(in);
                assertThat(refusal.status()).isEqualTo(refusalOf.getValue());
                assertThat(refusal.headers()).containsIgnoringCase("connection: close");
                assertThat(in.read()).isEqualTo(-1);
            }
        }
    }

    @Test
    void connectionsOverTheCapAreRefusedAtOnceAndCounted() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_CONNECTIONS; i++) {
                Socket socket = connect();
                socket.getOutputStream().write(get("/healthz").getBytes(StandardCharsets.UTF_8));
                assertThat(read(new BufferedInputStream(socket.getInputStream()))
                                .status())
                        .isEqualTo(200);
                held.add(socket);
            }
            long start = System.nanoTime();
            try (Socket refused = connect()) {
                InputStream in = new BufferedInputStream(refused.getInputStream());
                Response response = read(in);
                assertThat(response.status()).isEqualTo(503);
                assertThat(response.body()).contains("\"code\":\"TOO_MANY_CONNECTIONS\"");
                assertThat(in.read()).isEqualTo(-1);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(metrics.connectionsRefused()).isEqualTo(1);
            assertThat(metrics.openConnections()).isEqualTo(MAX_CONNECTIONS);
            held.remove(0).close();
            awaitOpenConnections(MAX_CONNECTIONS - 1);
            try (Socket admitted = connect()) {
                admitted.getOutputStream().write(get("/metrics").getBytes(StandardCharsets.UTF_8));
                Response response = read(new BufferedInputStream(admitted.getInputStream()));
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.body())
                        .contains("cloudtalk_http_connections_refused_total 1")
                        .contains("cloudtalk_http_connections " + MAX_CONNECTIONS);
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aRequestTrickledLineByLineIsCutOffAtTheDeadline() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            long start = System.nanoTime();
            out.write("POST /v1/query HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            // One header line every 150 ms: each resets an idle timeout, none completes the request.
            socket.setSoTimeout(150);
            Response response = null;
            for (int line = 0; line < 40 && response == null; line++) {
                try {
                    response = read(in);
                } catch (SocketTimeoutException e) {
                    out.write(("X-Slow-" + line + ": 1\r\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            assertThat(response).isNotNull();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.body()).contains("\"code\":\"REQUEST_TIMEOUT\"");
            // Cut off at the deadline (a loaded machine may be late by a little), not whenever the idle timeout says.
            assertThat(elapsed).isBetween(DEADLINE.toMillis() - 50, DEADLINE.toMillis() + 3000);
            socket.setSoTimeout(2000);
            assertThat(in.read()).isEqualTo(-1);
            assertThat(metrics.requestDeadlinesExceeded()).isEqualTo(1);
        }
    }

    @Test
    void anIdleKeepAliveConnectionIsNotCutOffByTheRequestDeadline() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(get("/healthz").getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).status()).isEqualTo(200);
            Thread.sleep(DEADLINE.toMillis() * 2);
            out.write(get("/healthz").getBytes(StandardCharsets.UTF_8));
            assertThat(read(in).status()).isEqualTo(200);
            assertThat(metrics.requestDeadlinesExceeded()).isZero();
        }
    }

    @Test
    void aBusyConnectionIsNotCutOffByTheRequestDeadline() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            long end = System.nanoTime() + DEADLINE.toNanos() * 4;
            int answered = 0;
            while (System.nanoTime() < end) {
                out.write(post("/v1/query", QUERY).getBytes(StandardCharsets.UTF_8));
                assertThat(read(in).status()).isEqualTo(200);
                out.write(get("/healthz").getBytes(StandardCharsets.UTF_8));
                assertThat(read(in).status()).isEqualTo(200);
                answered += 2;
                // Busy, but within the default query rate (1,000/s), which would answer 429 instead.
                Thread.sleep(2);
            }
            assertThat(answered).isGreaterThan(10);
            assertThat(metrics.requestDeadlinesExceeded()).isZero();
        }
    }

    private void awaitOpenConnections(int count) throws InterruptedException {
        for (int i = 0; i < 200 && metrics.openConnections() != count; i++) {
            Thread.sleep(10);
        }
        assertThat(metrics.openConnections()).isEqualTo(count);
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String post(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    /** A response's status line and headers, up to and with the blank line. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed after: " + head.toString(StandardCharsets.US_ASCII));
            }
            head.write(c);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    record Response(int status, String headers, String body) {}

    /** One response: status line, headers (as text), and a Content-Length body. */
    static Response read(InputStream in) throws IOException {
        String headers = readHead(in);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Response(Integer.parseInt(headers.substring(9, 12)), headers, body);
    }
}
