package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.cloudtalk.server.http.DeadlineUnderLoadTest.chainStatus;
import static org.cloudtalk.server.http.DeadlineUnderLoadTest.post;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.http.DeadlineUnderLoadTest.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16: refined answers that stopped short are counted in /metrics by cause, one count per such answer, against a
 * running server on loopback. Tenants are client addresses (127.0.0.2 to 127.0.0.4).
 */
class RefinedCutMetricsTest {
    /** Events allowed per estimator run: more than a 300-flow rate chain has, fewer than 400 flows ending in turn. */
    private static final int EVENTS = 350;

    private static final int OVER_EVENTS = 2;
    private static final int VICTIMS = 3;
    /** The refined search permits the server has: one per processor but one (at least one). */
    private static final int PERMITS = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path temp;

    @Test
    void countsEachRefinedAnswerThatStoppedShortByItsCause() throws Exception {
        String workers = String.valueOf(PERMITS + VICTIMS + 1);
        ExecutorService clients = Executors.newCachedThreadPool();
        try (CloudTalkServer server = CloudTalkServer.start(ServerConfig.from(Map.of(
                "status.file",
                chainStatus(temp, 300).toString(),
                "port",
                "0",
                "limits.estimator.events",
                String.valueOf(EVENTS),
                "workers",
                workers,
                "workers.per.tenant",
                workers)))) {
            int port = server.localAddress().getPort();
            Map<String, Long> before = cuts(port);

            // Flows of different sizes sharing one link end one after another, each an event: 400 are over the limit.
            StringBuilder inTurn = new StringBuilder();
            for (int i = 1; i <= 400; i++) {
                inTurn.append("f%d 10.8.0.1 -> 10.8.0.2 size %dM\n".formatted(i, i));
            }
            for (int i = 0; i < OVER_EVENTS; i++) {
                Reply reply = post(port, "127.0.0.2", "timeoutMs=5000", inTurn.toString());
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                assertThat(reply.body()).contains("(limits.estimator.events)");
            }

            // One estimate of a 300-flow rate chain takes seconds: these hold every search permit until half their
            // deadline, and the victims, waiting half of theirs for one, get none.
            String heavy = Coupled.rateChain(300);
            List<Future<Reply>> heavyReplies = new ArrayList<>();
            for (int i = 0; i < PERMITS; i++) {
                heavyReplies.add(clients.submit(() -> post(port, "127.0.0.3", "timeoutMs=4000", heavy)));
            }
            Thread.sleep(500);
            List<Future<Reply>> victims = new ArrayList<>();
            for (int i = 0; i < VICTIMS; i++) {
                victims.add(clients.submit(() -> post(
                        port, "127.0.0.4", "timeoutMs=1000", "A = (10.8.0.2 10.8.0.3)\nf1 10.8.0.1 -> A size 1M")));
            }
            for (Future<Reply> victim : victims) {
                Reply reply = victim.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                assertThat(reply.body()).contains("no search permit came free");
            }
            for (Future<Reply> heavyReply : heavyReplies) {
                Reply reply = heavyReply.get(30, TimeUnit.SECONDS);
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                assertThat(reply.body()).containsPattern("stopped at half the time left|half the time left ran out");
            }

            Map<String, Long> after = cuts(port);
            assertThat(after.get("estimator_events") - before.get("estimator_events"))
                    .isEqualTo(OVER_EVENTS);
            assertThat(after.get("no_permit") - before.get("no_permit")).isEqualTo(VICTIMS);
            assertThat(after.get("search_time") - before.get("search_time")).isEqualTo(PERMITS);
        } finally {
            clients.shutdownNow();
        }
    }

    /** {@code cloudtalk_refined_cut_total} by cause, as GET /metrics gives it; every cause is there from the start. */
    private static Map<String, Long> cuts(int port) throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        Matcher counts = Pattern.compile("(?m)^cloudtalk_refined_cut_total\\{cause=\"(\\w+)\"} (\\d+)$")
                .matcher(response.body());
        Map<String, Long> cuts = new HashMap<>();
        while (counts.find()) {
            cuts.put(counts.group(1), Long.parseLong(counts.group(2)));
        }
        assertThat(cuts).containsOnlyKeys("no_permit", "search_time", "estimator_events");
        return cuts;
    }
}
