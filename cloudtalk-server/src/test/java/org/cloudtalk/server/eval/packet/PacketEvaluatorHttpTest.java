package org.cloudtalk.server.eval.packet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cloudtalk.server.http.ApiChannelInitializer;
import org.cloudtalk.server.http.ApiHandler;
import org.cloudtalk.server.http.HttpApiServer;
import org.cloudtalk.server.http.ServerMetrics;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.status.StaticStatusSource;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code evaluator=packet} through the HTTP API on loopback, simulating with the real helper where ns-3 is. */
class PacketEvaluatorHttpTest {
    /** Rack r1 holds the senders and one candidate; r2, in another pod, the other, behind an oversubscribed uplink. */
    private static final String TOPOLOGY =
            """
            tier host rate 1Gbps latency 10us buffer 50pkt
            tier rack oversubscription 20 latency 10us buffer 20pkt
            tier pod rate 10Gbps latency 20us buffer 50pkt
            rack r1 pod p1 10.0.0.1-10.0.0.30
            rack r2 pod p2 10.1.0.1-10.1.0.30
            """;

    /** 20 senders of 20 KB in rack r1 into aggregator A, which forwards each result to the frontend in r1. */
    private static final String AGGREGATION = aggregation(20, "10.1.0.1 10.0.0.1");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path temp;

    /** Senders 10.0.0.2, 10.0.0.3... each send 20 KB to A, which forwards it to the frontend 10.0.0.30. */
    static String aggregation(int senders, String candidates) {
        StringBuilder query = new StringBuilder("A = (" + candidates + ")\n");
        for (int s = 1; s <= senders; s++) {
            query.append("in" + s + " 10.0.0." + (s + 1) + " -> A size 20KB\n");
            query.append("out" + s + " A -> 10.0.0.30 size sz(in" + s + ") transfer t(in" + s + ")\n");
        }
        return query.toString();
    }

    @Test
    void answersTheBindingWithTheShortestSimulatedCompletion() throws Exception {
        PacketSimulatorTest.assumeHelperBuilt();
        PacketSettings settings = settings(Optional.of(TopologyParser.parse(TOPOLOGY)), 1000, Duration.ofSeconds(30));
        double inRack = ask(settings, aggregation(20, "10.0.0.1"), 200)
                .get("estimatedCompletionSeconds")
                .asDouble();
        double acrossPods = ask(settings, aggregation(20, "10.1.0.1"), 200)
                .get("estimatedCompletionSeconds")
                .asDouble();
        JsonNode answer = ask(settings, AGGREGATION, 200);

        // The simulations are deterministic: the answer is the candidate simulated alone to finish first, with that
        // time; the two placements differ (incast at the aggregator vs loss at the 20-packet rack uplinks).
        assertThat(inRack).isNotEqualTo(acrossPods);
        assertThat(answer.get("bindings").get("A").asText()).isEqualTo(inRack < acrossPods ? "10.0.0.1" : "10.1.0.1");
        assertThat(answer.get("estimatedCompletionSeconds").asDouble()).isEqualTo(Math.min(inRack, acrossPods));
        assertThat(answer.get("evaluator").asText()).isEqualTo("packet");
        assertThat(answer.has("notes")).isFalse();
        // 20 x 20 KB through the aggregator's 1 Gbps link takes at least this long; incast makes it longer.
        assertThat(Math.min(inRack, acrossPods))
                .isGreaterThan(20 * 20 * 1024 * 8 / 1e9)
                .isLessThan(5);
    }

    @Test
    void saysWhenTheBindingLimitCutTheSearch() throws Exception {
        PacketSimulatorTest.assumeHelperBuilt();
        PacketSettings settings = settings(Optional.of(TopologyParser.parse(TOPOLOGY)), 1, Duration.ofSeconds(30));
        JsonNode answer = ask(settings, AGGREGATION, 200);

        // Candidates are considered in random order (ties spread), so either may be the one simulated; the answer is
        // that one, with its own simulated time, not the better of the two.
        String chosen = answer.get("bindings").get("A").asText();
        assertThat(chosen).isIn("10.0.0.1", "10.1.0.1");
        double alone = ask(settings, aggregation(20, chosen), 200)
                .get("estimatedCompletionSeconds")
                .asDouble();
        assertThat(answer.get("estimatedCompletionSeconds").asDouble()).isEqualTo(alone);
        assertThat(answer.get("notes").get(0).asText())
                .isEqualTo(
                        "the search was cut at the binding limit of 1 (packet.bindings): more bindings were not simulated");
    }

    @Test
    void saysWhenTheBudgetCutTheSearch() throws Exception {
        PacketSimulatorTest.assumeHelperBuilt();
        // 28 candidates in r2, each simulation ~0.1-0.2 s of CPU: on two threads they need well over the 0.5 s budget.
        StringBuilder candidates = new StringBuilder();
        for (int c = 1; c <= 28; c++) {
            candidates.append("10.1.0.").append(c).append(' ');
        }
        String query = aggregation(28, candidates.toString().strip());
        HttpResponse<String> response =
                post(settings(Optional.of(TopologyParser.parse(TOPOLOGY)), 1000, Duration.ofMillis(500)), query);

        // On a loaded machine even the first simulation may miss the budget; either way the budget cut the search.
        JsonNode answer = JSON.readTree(response.body());
        if (response.statusCode() == 422) {
            assertThat(answer.get("code").asText()).isEqualTo("OVER_LIMITS");
            assertThat(answer.get("message").asText())
                    .isEqualTo("the packet evaluator simulated no binding within its budget of 500 ms; "
                            + "raise packet.budget.ms");
            return;
        }
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String note = answer.get("notes").get(0).asText();
        assertThat(note)
                .matches("the budget of 500 ms \\(packet.budget.ms\\) ran out after \\d+ of 28 bindings: "
                        + "the answer is the best of those simulated");
        assertThat(Integer.parseInt(note.replaceAll(".* after (\\d+) of .*", "$1")))
                .isBetween(1, 27);
    }

    @Test
    void refusesQueriesItCannotSimulateWithTheFlowsName() throws Exception {
        JsonNode answer = ask(
                settings(Optional.empty(), 10, Duration.ofSeconds(5)),
                "A = (10.0.0.1 10.0.0.2)\nf1 10.0.0.5 -> A size 1M rate 1MBps\n",
                422);
        assertThat(answer.get("code").asText()).isEqualTo("UNANSWERABLE");
        assertThat(answer.get("message").asText())
                .isEqualTo("packet evaluator: flow f1 has 'rate', which a packet simulation does not model");
    }

    @Test
    void withoutTheHelperTheEvaluatorIsUnavailable() throws Exception {
        PacketSettings missing =
                new PacketSettings(Optional.empty(), temp.resolve("no-packet-sim"), 10, Duration.ofSeconds(5), 1);
        JsonNode answer = ask(missing, "A = (10.0.0.1 10.0.0.2)\n10.0.0.5 -> A size 1M\n", 503);
        assertThat(answer.get("code").asText()).isEqualTo("UNAVAILABLE");
        assertThat(answer.get("message").asText())
                .startsWith("the packet evaluator is unavailable: " + temp.resolve("no-packet-sim") + " was not built");
    }

    private static PacketSettings settings(Optional<Topology> topology, int bindings, Duration budget) {
        return new PacketSettings(topology, PacketSimulator.defaultExecutable(), bindings, budget, 2);
    }

    private JsonNode ask(PacketSettings packet, String query, int expectedStatus) throws Exception {
        HttpResponse<String> response = post(packet, query);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }

    /** Starts a server with these settings, posts the query with info=static, stops the server. */
    private HttpResponse<String> post(PacketSettings packet, String query) throws Exception {
        Path status = Files.writeString(temp.resolve("status.json"), "{\"hosts\": {}}");
        StaticStatusSource source = new StaticStatusSource(status);
        Reservations reservations = new Reservations(Duration.ZERO);
        QueryService service = new QueryService(
                source,
                source,
                Duration.ofMillis(10),
                new TenantLimits(65_536, 1000, 10, 1000, 1000, 1_000_000, 1_000_000),
                Sampling.DEFAULT,
                reservations,
                packet);
        ExecutorService workers = Executors.newFixedThreadPool(2);
        HttpApiServer server = HttpApiServer.start(
                new InetSocketAddress("127.0.0.1", 0),
                new ApiChannelInitializer(
                        new ApiHandler(
                                service,
                                new Admission(TenantLimits.DEFAULT, 2),
                                workers,
                                new ServerMetrics(reservations::size),
                                Duration.ofSeconds(60)),
                        65_536 * 4),
                1);
        try {
            return CLIENT.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://127.0.0.1:" + server.localAddress().getPort()
                                            + "/v1/query?evaluator=packet&info=static&timeoutMs=60000"))
                            .POST(HttpRequest.BodyPublishers.ofString(query))
                            .timeout(Duration.ofSeconds(90))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } finally {
            server.close();
            workers.shutdownNow();
        }
    }
}
