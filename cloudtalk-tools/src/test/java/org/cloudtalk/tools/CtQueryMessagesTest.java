package org.cloudtalk.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.client.api.HttpApi;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees from ctquery: help, one-line errors in the user's words, and a hint when no status arrived. */
class CtQueryMessagesTest {
    @Test
    void ctqueryHelpListsEvaluatorsAndExitCodes() {
        Run help = ctquery("--help");
        assertThat(help.exit).isZero();
        assertThat(help.out)
                .contains("Usage: ctquery")
                .contains("heuristic, flow, exhaustive, refined, packet")
                .contains("(default: refined)")
                .contains("Exit codes:");
        assertThat(ctquery("--version").exit).isZero();
    }

    @Test
    void ctqueryExplainsBadFlagsInWords() {
        Run noScheme = ctquery("--server", "127.0.0.1:7480", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(noScheme.exit).isEqualTo(Launchers.USAGE);
        assertThat(noScheme.err)
                .startsWith("ctquery: Invalid value 127.0.0.1:7480 for --server: ")
                .contains("(e.g. " + CtQuery.DEFAULT_SERVER + ")");
        Run withPath = ctquery("--server", "http://127.0.0.1:7480/v1/query", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(withPath.exit).isEqualTo(Launchers.USAGE);
        assertThat(withPath.err)
                .startsWith("ctquery: Invalid value http://127.0.0.1:7480/v1/query for --server: expected"
                        + " http://HOST:PORT and nothing more (queries go to /v1/query)");
        Run badPort = ctquery("--server", "http://127.0.0.1:99999", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(badPort.exit).isEqualTo(Launchers.USAGE);
        assertThat(badPort.err).startsWith("ctquery: Invalid value http://127.0.0.1:99999 for --server");
        Run evaluator = ctquery("--evaluator", "bogus", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(evaluator.exit).isEqualTo(Launchers.USAGE);
        assertThat(evaluator.err).contains("bogus").contains("HEURISTIC").doesNotContain("No enum constant");
        Run timeout = ctquery("--timeout-ms", "abc", "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(timeout.exit).isEqualTo(Launchers.USAGE);
        assertThat(timeout.err).contains("'abc' is not a long").doesNotContain("For input string");
        Run noQuery = ctquery();
        assertThat(noQuery.exit).isEqualTo(Launchers.USAGE);
        assertThat(noQuery.err).startsWith("ctquery: no query given");
        assertThat((noScheme.err + evaluator.err + timeout.err + noQuery.err)).doesNotContain("\tat ");
    }

    /** A query file that is not UTF-8 is refused where it stops being UTF-8, before any server is asked. */
    @Test
    void ctqueryRefusesAQueryThatIsNotUtf8WithoutAsking(@TempDir Path temp) throws Exception {
        Path latin1 = temp.resolve("latin1.ctq");
        Files.write(latin1, "f1 10.0.0.1 -> caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Run refused = ctquery("--server", "http://127.0.0.1:9", "-f", latin1.toString());
        assertThat(refused.exit).isEqualTo(Launchers.QUERY_ERROR);
        assertThat(refused.err).isEqualTo("line 1:19: not valid UTF-8 text (byte 18 of the query)\n");
    }

    @Test
    void ctqueryRefusesAQueryLongerThanAnyServerTakesWithoutAsking(@TempDir Path temp) throws Exception {
        Path huge = temp.resolve("huge.ctq");
        Files.write(huge, new byte[HttpApi.MAX_QUERY_CHARS + 1]);
        // Nothing listens on port 9: the refusal must come before any attempt to reach a server.
        Run tooLong = ctquery("--server", "http://127.0.0.1:9", "-f", huge.toString());
        assertThat(tooLong.exit).isEqualTo(Launchers.QUERY_ERROR);
        assertThat(tooLong.err)
                .isEqualTo("line 1:1: query is more than " + HttpApi.MAX_QUERY_CHARS
                        + " bytes long; no server accepts it (limits.query.chars is at most "
                        + HttpApi.MAX_QUERY_CHARS + ")\n");
    }

    @Test
    void ctquerySaysWhenNothingListens() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Run refused = ctquery("--server", "http://127.0.0.1:" + closedPort, "f1 10.0.0.1 -> 10.0.0.2");
        assertThat(refused.exit).isEqualTo(Launchers.UNAVAILABLE);
        assertThat(refused.err)
                .isEqualTo("ctquery: cannot reach http://127.0.0.1:" + closedPort
                        + ": connection refused (is a CloudTalk server listening there?)\n");
    }

    @Test
    void ctquerySaysWhenNoStatusArrived(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("status.key");
        Files.writeString(key, "loopback-test-key-0123456789");
        int silentPort;
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            silentPort = socket.getLocalPort(); // no daemon listens there once it is closed
        }
        Map<String, String> values = new HashMap<>();
        values.put("port", "0");
        values.put("status.key.file", key.toString());
        values.put("locator.port", Integer.toString(silentPort));
        values.put("gather.wait.ms", "50");
        try (CloudTalkServer server = CloudTalkServer.start(ServerConfig.from(values))) {
            String url = "http://127.0.0.1:" + server.localAddress().getPort();
            Run answered = ctquery("--server", url, "A = (127.0.0.1 127.0.0.2)\nf1 A -> 127.0.0.3 size 1M");
            assertThat(answered.exit).isZero();
            assertThat(answered.out)
                    .contains("status 0 of 3 answered")
                    .contains("# no status arrived: every host counted as heavily loaded");

            // --json keeps what the server said: the missing status, the scores in the query's order, the notes.
            Run json = ctquery(
                    "--server",
                    url,
                    "--json",
                    "--explain",
                    "--evaluator",
                    "heuristic",
                    "A = (127.0.0.2 127.0.0.1)\nf1 A -> 127.0.0.3 size 1M");
            assertThat(json.exit).isZero();
            JsonNode answer = new ObjectMapper().readTree(json.out);
            assertThat(answer.path("status").path("missing").asInt()).isEqualTo(3);
            assertThat(answer.path("explain").path("A").fieldNames())
                    .toIterable()
                    .containsExactly("127.0.0.2", "127.0.0.1");
            assertThat(answer.path("bindings").path("A").asText()).isIn("127.0.0.1", "127.0.0.2");
        }
    }

    @Test
    void ctqueryShowsTheServersNotes() {
        QueryResult cut = new QueryResult(
                Map.of("A", "10.0.0.1"),
                "refined",
                OptionalDouble.of(1.5),
                2,
                2,
                0,
                false,
                100,
                List.of("the search was cut short"),
                Map.of(),
                "{}");
        assertThat(CtQuery.human(cut)).contains("# note: the search was cut short\n");
    }

    private record Run(int exit, String out, String err) {}

    private static Run ctquery(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CtQuery.run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
