package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.status.StaticStatusSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tenant API over real HTTP/1.1 on loopback. */
class HttpApiTest {
    @TempDir
    static Path temp;

    static HttpApiServer server;
    static ExecutorService workers;
    static ServerMetrics metrics;
    static String base;
    static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        Path status = temp.resolve("status.json");
        Files.writeString(
                status,
                "{\"hosts\": {" + host("10.0.0.1", 900_000_000) + "," + host("10.0.0.2", 0) + "," + host("10.0.0.3", 0)
                        + "}}");
        StaticStatusSource source = new StaticStatusSource(status);
        Reservations reservations = new Reservations(Duration.ZERO);
        QueryService service = new QueryService(
                source,
                source,
                Duration.ofMillis(50),
                new TenantLimits(4096, 100, 10, 1000, 1000, 1_000_000, 1_000_000),
                Sampling.DEFAULT,
                reservations);
        workers = Executors.newFixedThreadPool(4);
        metrics = new ServerMetrics(reservations::size);
        ApiHandler handler = new ApiHandler(
                service, new Admission(TenantLimits.DEFAULT, 4), workers, metrics, Duration.ofSeconds(2));
        server = HttpApiServer.start(
                new java.net.InetSocketAddress("127.0.0.1", 0), new ApiChannelInitializer(handler, 4096), 1);
        base = "http://127.0.0.1:" + server.localAddress().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
        workers.shutdownNow();
    }

    @Test
    void answersAQueryWithBindingsAndEstimate() throws Exception {
        HttpResponse<String> response =
                post("/v1/query?evaluator=flow", "A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 100M");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body())
                .contains("\"bindings\":{\"A\":\"10.0.0.2\"}")
                .contains("\"evaluator\":\"flow\"")
                .contains("\"estimatedCompletionSeconds\":0.8388608")
                .contains("\"status\":{\"asked\":3,\"answered\":3,\"reused\":0,\"sampled\":false,\"missing\":0}");
    }

    @Test
    void aTaskThatNeverCompletesHasANullEstimateNotInfinity() throws Exception {
        // f2 is held to f1's rate, and f1 (1 MiB) finishes long before f2's 100 MiB: f2 can never complete.
        String query = "f1 10.0.0.2 -> 10.0.0.3 size 1M rate r(f2)\nf2 10.0.0.2 -> 10.0.0.1 size 100M rate r(f1)";
        for (String evaluator : new String[] {"flow", "exhaustive", "refined"}) {
            HttpResponse<String> response = post("/v1/query?timeoutMs=30000&evaluator=" + evaluator, query);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body())
                    .as(evaluator)
                    .contains("\"estimatedCompletionSeconds\":null")
                    .doesNotContain("Infinity");
        }
    }

    @Test
    void explainShowsEachCandidatesScore() throws Exception {
        HttpResponse<String> response = post(
                "/v1/query?explain=true",
                "A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 100M\nB = (10.0.0.3 10.0.0.1)\nf2 10.0.0.2 -> B size 1M");
        assertThat(response.statusCode()).isEqualTo(200);
        // 10.0.0.1 sends 900 Mbit/s of its 1 Gbit/s: 125e6 - 112.5e6 / 2 bytes/s; B's flow from 10.0.0.2 is not local.
        assertThat(response.body())
                .contains("\"explain\":{")
                .contains("\"A\":{\"10.0.0.1\":6.875E7,\"10.0.0.2\":1.25E8}");
        assertThat(post("/v1/query?explain=maybe", "f1 10.0.0.1 -> 10.0.0.2").statusCode())
                .isEqualTo(400);
    }

    @Test
    void queryErrorsAre400WithLineAndColumn() throws Exception {
        HttpResponse<String> response = post("/v1/query", "A = (10.0.0.1)\nf1 A -> B size 1");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .startsWith("{\"code\":\"UNDECLARED_VARIABLE\",\"message\":\"line 2:9: 'B' is not a declared variable")
                .contains("\"line\":2,\"column\":9");
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("at org.");
    }

    /** A body that is not UTF-8 is a query error where it stops being UTF-8, not an odd character. */
    @Test
    void aBodyThatIsNotUtf8IsAQueryErrorAtItsPlace() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/query"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(
                                "f1 10.0.0.1 -> caf\u00e9 size 1".getBytes(StandardCharsets.ISO_8859_1)))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .startsWith("{\"code\":\"SYNTAX_ERROR\",\"message\":\"line 1:19: not valid UTF-8 text (byte 18 of the"
                        + " query)\"");
    }

    @Test
    void everyRefusalHasItsStatus() throws Exception {
        assertThat(post("/v1/query", "#".repeat(5000)).statusCode()).isEqualTo(413);
        assertThat(post("/v1/query", "A = B = (10.0.0.1)\nf1 A -> B size 1").statusCode())
                .isEqualTo(422);
        assertThat(post("/v1/query?evaluator=magic", "f1 10.0.0.1 -> 10.0.0.2").body())
                .contains("unknown evaluator 'magic'");
        assertThat(post("/v1/query?timeoutMs=0", "f1 10.0.0.1 -> 10.0.0.2").statusCode())
                .isEqualTo(400);
        // ASCII digits only: not a sign, not the digits of other scripts (full-width 5, Arabic-Indic 50).
        for (String timeout : List.of("%2B5", "%EF%BC%95", "%D9%A5%D9%A0", "5.0", "12345678901")) {
            HttpResponse<String> refused = post("/v1/query?timeoutMs=" + timeout, "f1 10.0.0.1 -> 10.0.0.2");
            assertThat(refused.statusCode()).as(timeout).isEqualTo(400);
            assertThat(refused.body()).as(timeout).contains("timeoutMs must be 1 to");
        }
        // A parameter given twice is refused, not silently taken from the last value.
        HttpResponse<String> twice = post("/v1/query?timeoutMs=5&timeoutMs=6000", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(twice.body()).contains("timeoutMs is given 2 times; give it once");
        assertThat(post("/v1/query?evaluator=flow&evaluator=heuristic", "f1 10.0.0.1 -> 10.0.0.2 size 1M")
                        .statusCode())
                .isEqualTo(400);
        assertThat(post("/v1/nothing", "").statusCode()).isEqualTo(404);
        HttpResponse<String> get = client.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/query")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("allow")).hasValue("POST");
    }

    @Test
    void staticInformationUsesConfiguredCapacitiesOnly() throws Exception {
        HttpResponse<String> response =
                post("/v1/query?info=static", "A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 1M");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"A\":\"10.0.0.2\"");
    }

    @Test
    void metricsAndHealth() throws Exception {
        post("/v1/query", "f1 10.0.0.1 -> 10.0.0.2 size 1M");
        HttpResponse<String> metricsResponse = client.send(
                HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metricsResponse.statusCode()).isEqualTo(200);
        assertThat(metricsResponse.body())
                .contains("cloudtalk_queries_total{outcome=\"ok\"}")
                .contains("cloudtalk_query_latency_seconds_bucket{le=\"+Inf\"}")
                .contains("cloudtalk_status_replies_total")
                .contains("cloudtalk_reservation_fallbacks_total 0")
                .contains("cloudtalk_reservations 0");
        HttpResponse<String> health = client.send(
                HttpRequest.newBuilder(URI.create(base + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.body()).isEqualTo("{\"status\":\"ok\"}");
    }

    @Test
    void garbageOnTheSocketGetsA400AndTheServerKeepsServing() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.localAddress().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write("BREW /\u0000\u0001 HTCPCP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            socket.setSoTimeout(5000);
            InputStream in = socket.getInputStream();
            String reply = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            assertThat(reply).startsWith("HTTP/1.1 4");
        }
        assertThat(post("/v1/query", "f1 10.0.0.1 -> 10.0.0.2 size 1M").statusCode())
                .isEqualTo(200);
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String host(String address, long txUseBits) {
        return "\"" + address + "\": {\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9, "
                + "\"nicTxUseBitsPerSecond\": " + txUseBits + ", \"diskReadCapacityBytesPerSecond\": 2e8, "
                + "\"diskWriteCapacityBytesPerSecond\": 2e8}";
    }
}
