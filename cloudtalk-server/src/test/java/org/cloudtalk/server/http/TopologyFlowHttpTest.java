package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.cloudtalk.server.http.DeadlineUnderLoadTest.post;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.server.http.DeadlineUnderLoadTest.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a server started with {@code topology.file} estimates with the rack uplinks, through the HTTP API on
 * loopback. The sender 10.0.0.1 and candidate 10.0.0.2 share rack r1, whose hosts have 10 Gbit/s links; 10.0.0.2 has
 * half its link in use. The other candidate, 10.0.1.1, is idle but in rack r2, behind a 1 Gbit/s uplink.
 */
class TopologyFlowHttpTest {
    private static final String TOPOLOGY =
            """
            tier host rate 10Gbps latency 10us buffer 50pkt
            tier rack rate 1Gbps latency 10us buffer 50pkt
            tier pod rate 100Gbps latency 20us buffer 50pkt
            rack r1 pod p1 10.0.0.1 10.0.0.2
            rack r2 pod p1 10.0.1.1
            """;
    private static final String QUERY = "A = (10.0.1.1 10.0.0.2)\nf1 10.0.0.1 -> A size 100M";
    private static final double SIZE = 100 * 1024 * 1024;
    private static final double TEN_GBIT = 1.25e9;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void aServerWithATopologyAvoidsTheHostBehindTheNarrowUplink() throws Exception {
        Path topology = Files.writeString(temp.resolve("dc.topo"), TOPOLOGY);
        JsonNode refinedWith;
        JsonNode flowWith;
        try (CloudTalkServer server = start(Map.of("topology.file", topology.toString()))) {
            refinedWith = ask(server, "");
            flowWith = ask(server, "evaluator=flow");
        }
        JsonNode refinedWithout;
        JsonNode flowWithout;
        try (CloudTalkServer server = start(Map.of())) {
            refinedWithout = ask(server, "");
            flowWithout = ask(server, "evaluator=flow");
        }

        // Refined, the default: without the topology the idle host across racks is best (10 Gbit/s); with it, the
        // half-busy host in the sender's rack (5 Gbit/s), as the other is behind 1 Gbit/s.
        assertThat(refinedWithout.get("bindings").get("A").asText()).isEqualTo("10.0.1.1");
        assertThat(refinedWithout.get("estimatedCompletionSeconds").asDouble())
                .isCloseTo(SIZE / TEN_GBIT, within(1e-9));
        assertThat(refinedWith.get("bindings").get("A").asText()).isEqualTo("10.0.0.2");
        assertThat(refinedWith.get("estimatedCompletionSeconds").asDouble())
                .isCloseTo(SIZE / (TEN_GBIT / 2), within(1e-9));
        // Flow keeps the heuristic's binding, which knows nothing of racks, and estimates it through the uplink.
        assertThat(flowWithout.get("bindings").get("A").asText()).isEqualTo("10.0.1.1");
        assertThat(flowWith.get("bindings").get("A").asText()).isEqualTo("10.0.1.1");
        assertThat(flowWithout.get("estimatedCompletionSeconds").asDouble()).isCloseTo(SIZE / TEN_GBIT, within(1e-9));
        assertThat(flowWith.get("estimatedCompletionSeconds").asDouble()).isCloseTo(SIZE / 125e6, within(1e-9));
    }

    private CloudTalkServer start(Map<String, String> extra) throws Exception {
        Path status = temp.resolve("status.json");
        Files.writeString(
                status,
                "{\"hosts\": {" + host("10.0.0.1", 0) + ", " + host("10.0.0.2", 5e9) + ", " + host("10.0.1.1", 0)
                        + "}}");
        Map<String, String> config = new HashMap<>(extra);
        config.put("status.file", status.toString());
        config.put("port", "0");
        // Each answer's pseudo-reservation would change the next query's loads.
        config.put("reservation.hold.ms", "0");
        return CloudTalkServer.start(ServerConfig.from(config));
    }

    private static String host(String address, double rxUseBits) {
        return ("\"%s\": {\"nicRxCapacityBitsPerSecond\": 1e10, \"nicRxUseBitsPerSecond\": %.0f,"
                        + " \"nicTxCapacityBitsPerSecond\": 1e10, \"diskReadCapacityBytesPerSecond\": 1e9,"
                        + " \"diskWriteCapacityBytesPerSecond\": 1e9}")
                .formatted(address, rxUseBits);
    }

    private static JsonNode ask(CloudTalkServer server, String parameters) throws Exception {
        Reply reply = post(server.localAddress().getPort(), "127.0.0.1", parameters, QUERY);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return JSON.readTree(reply.body());
    }
}
