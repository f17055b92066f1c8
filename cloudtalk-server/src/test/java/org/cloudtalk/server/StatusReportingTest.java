package org.cloudtalk.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server asking a daemon that signs its replies with another key: the answer says which statuses were
 * missing, and /metrics counts the rejected datagrams, the query answered without them, and the statuses asked for
 * every query, answered or timed out.
 */
class StatusReportingTest {
    private static final String QUERY = "A = (10.9.0.1 10.9.0.2)\nf1 A -> disk";
    private static final byte[] KEY = "status-reporting-test-key-0123456789".getBytes(StandardCharsets.US_ASCII);

    @Test
    void rejectedRepliesAndMissingStatusAreReported(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.write(key, KEY);
        try (DatagramSocket daemon = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            Thread impostor = new Thread(() -> answerWithTheWrongKey(daemon));
            impostor.start();
            Path map = temp.resolve("daemons.map");
            Files.writeString(
                    map,
                    "10.9.0.1 127.0.0.1:" + daemon.getLocalPort() + "\n10.9.0.2 127.0.0.1:" + daemon.getLocalPort()
                            + "\n");
            try (CloudTalkServer server = CloudTalkServer.start(ServerConfig.from(Map.of(
                    "port",
                    "0",
                    "status.key.file",
                    key.toString(),
                    "locator.map",
                    map.toString(),
                    "gather.wait.ms",
                    "200")))) {
                String base = "http://127.0.0.1:" + server.localAddress().getPort();
                HttpClient client = HttpClient.newHttpClient();
                HttpResponse<String> answer = query(client, base + "/v1/query", QUERY);
                assertThat(answer.statusCode()).isEqualTo(200);
                assertThat(answer.body()).contains("\"asked\":2,\"answered\":0").contains("\"missing\":2");
                String metrics = metrics(client, base);
                assertThat(metrics)
                        .contains("cloudtalk_status_rejected_total 1\n")
                        .contains("cloudtalk_status_missing_queries_total 1\n")
                        .contains("cloudtalk_status_stale_total 0\n")
                        .contains("cloudtalk_status_requested_total 2\n");

                // A deadline shorter than gather.wait.ms: the gather waits half of it, and the query is answered in
                // time
                // with the silent daemon's hosts as heavily loaded, not timed out.
                HttpResponse<String> hurried = query(client, base + "/v1/query?timeoutMs=100", QUERY);
                assertThat(hurried.statusCode()).as(hurried.body()).isEqualTo(200); // past its deadline: a 503
                assertThat(hurried.body()).contains("\"missing\":2");

                // A query refused after its gather (three distinct variables, two hosts) asked the daemons all the
                // same: counted.
                HttpResponse<String> refused = query(
                        client, base + "/v1/query", "A = B = C = (10.9.0.1 10.9.0.2)\nf1 A -> B size 1M\nf2 C -> disk");
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
                assertThat(metrics(client, base))
                        .contains("cloudtalk_status_requested_total 6\n")
                        .contains("cloudtalk_status_timeouts_total 6\n")
                        .contains("cloudtalk_status_missing_queries_total 2\n");
            } finally {
                daemon.close();
                impostor.join(5_000);
            }
        }
    }

    private static HttpResponse<String> query(HttpClient client, String uri, String text) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(uri))
                        .POST(HttpRequest.BodyPublishers.ofString(text))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String metrics(HttpClient client, String base) throws Exception {
        return client.send(
                        HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** Decodes requests with the deployment's key, answers them signed with another. */
    private static void answerWithTheWrongKey(DatagramSocket socket) {
        StatusCodec genuine = new StatusCodec(new MessageAuthenticator(KEY));
        StatusCodec impostor =
                new StatusCodec(new MessageAuthenticator("another-deployment-key-0123456789".getBytes()));
        byte[] buffer = new byte[WireFormat.MAX_DATAGRAM];
        try {
            while (!socket.isClosed()) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                socket.receive(packet);
                StatusRequest request;
                try {
                    request = genuine.decodeRequest(buffer, packet.getLength());
                } catch (WireException e) {
                    continue;
                }
                List<EndpointStatus> statuses = new ArrayList<>();
                for (InetAddress endpoint : request.endpoints()) {
                    statuses.add(new EndpointStatus(endpoint, true, 0, 1_000_000_000, 0, 1_000_000_000, 0, 1, 0, 1, 0));
                }
                byte[] reply = impostor.encodeReply(
                        new StatusReply(request.requestId(), System.currentTimeMillis(), statuses));
                socket.send(new DatagramPacket(reply, reply.length, packet.getSocketAddress()));
            }
        } catch (IOException e) {
            // closed by the test
        }
    }
}
