package org.cloudtalk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.EvaluatorName;
import org.junit.jupiter.api.Test;

class CloudTalkClientTest {
    @Test
    void readsAnAnswer() throws Exception {
        QueryResult result = CloudTalkClient.interpret(
                200,
                "{\"bindings\":{\"A\":\"10.0.0.2\",\"B\":\"fe80::1\"},"
                        + "\"evaluator\":\"flow\",\"estimatedCompletionSeconds\":1.5,"
                        + "\"status\":{\"asked\":3,\"answered\":2,\"reused\":1,\"sampled\":true},\"elapsedMicros\":812,"
                        + "\"explain\":{\"A\":{\"10.0.0.1\":6.875E7,\"10.0.0.2\":\"unconstrained\"}}}");
        assertThat(result.bindings()).containsExactlyInAnyOrderEntriesOf(Map.of("A", "10.0.0.2", "B", "fe80::1"));
        assertThat(result.estimatedCompletionSeconds()).hasValue(1.5);
        assertThat(result.statusAnswered()).isEqualTo(2);
        assertThat(result.sampled()).isTrue();
        assertThat(result.elapsedMicros()).isEqualTo(812);
        assertThat(result.candidateScores().get("A"))
                .containsExactly(Map.entry("10.0.0.1", 6.875e7), Map.entry("10.0.0.2", Double.POSITIVE_INFINITY));
    }

    @Test
    void turnsEveryRefusalIntoAKindToActOn() {
        CloudTalkException queryError = catchThrowableOfType(
                CloudTalkException.class,
                () -> CloudTalkClient.interpret(
                        400,
                        "{\"code\":\"UNDECLARED_VARIABLE\",\"message\":\"line 2:9: 'B' is not a declared variable\","
                                + "\"line\":2,\"column\":9,\"errors\":[]}"));
        assertThat(queryError.kind()).isEqualTo(CloudTalkException.Kind.QUERY_ERROR);
        assertThat(queryError.line()).isEqualTo(2);
        assertThat(queryError.column()).isEqualTo(9);
        assertThat(kind(413)).isEqualTo(CloudTalkException.Kind.REFUSED);
        assertThat(kind(422)).isEqualTo(CloudTalkException.Kind.REFUSED);
        assertThat(kind(429)).isEqualTo(CloudTalkException.Kind.RATE_LIMITED);
        assertThat(kind(503)).isEqualTo(CloudTalkException.Kind.UNAVAILABLE);
        CloudTalkException nonsense = catchThrowableOfType(
                CloudTalkException.class, () -> CloudTalkClient.interpret(200, "{\"bindings\": 7}"));
        assertThat(nonsense.kind()).isEqualTo(CloudTalkException.Kind.UNAVAILABLE);
        assertThat(catchThrowableOfType(CloudTalkException.class, () -> CloudTalkClient.interpret(200, "<html>"))
                        .code())
                .isEqualTo("BAD_ANSWER");
        // An error page that is not the server's JSON (a proxy's): its status still says what happened.
        CloudTalkException proxied = catchThrowableOfType(
                CloudTalkException.class, () -> CloudTalkClient.interpret(503, "<html>Service Unavailable</html>"));
        assertThat(proxied.kind()).isEqualTo(CloudTalkException.Kind.UNAVAILABLE);
        assertThat(proxied.code()).isEqualTo("HTTP_503");
        assertThat(catchThrowableOfType(CloudTalkException.class, () -> CloudTalkClient.interpret(429, ""))
                        .kind())
                .isEqualTo(CloudTalkException.Kind.RATE_LIMITED);
    }

    @Test
    void everyApiErrorArrivesWithItsCodeAndAKindThatFitsItsStatus() {
        for (ApiError error : ApiError.values()) {
            CloudTalkException refused = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> CloudTalkClient.interpret(
                            error.httpStatus(), "{\"code\":\"" + error.name() + "\",\"message\":\"why\"}"));
            assertThat(refused.code()).isEqualTo(error.name());
            assertThat(refused.getMessage()).isEqualTo("why");
            CloudTalkException.Kind expected =
                    switch (error) {
                        case BAD_REQUEST, BAD_PARAMETER -> CloudTalkException.Kind.QUERY_ERROR;
                        case TOO_LARGE, OVER_LIMITS, UNANSWERABLE -> CloudTalkException.Kind.REFUSED;
                        case RATE_LIMITED -> CloudTalkException.Kind.RATE_LIMITED;
                        default -> CloudTalkException.Kind.UNAVAILABLE;
                    };
            assertThat(refused.kind()).as(error.name()).isEqualTo(expected);
        }
    }

    @Test
    void aServerThatIsDownIsUnavailableNotAnError() throws Exception {
        int port;
        try (ServerSocket unused = new ServerSocket(0)) {
            port = unused.getLocalPort();
        }
        CloudTalkClient client = new CloudTalkClient(URI.create("http://127.0.0.1:" + port), Duration.ofMillis(500));
        CloudTalkException down = catchThrowableOfType(
                CloudTalkException.class,
                () -> client.query(
                        "f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ofSeconds(1)));
        assertThat(down.kind()).isEqualTo(CloudTalkException.Kind.UNAVAILABLE);
        assertThat(down.code()).isEqualTo("CONNECTION");
    }

    @Test
    void jsonReaderAcceptsJsonAndRejectsTheRest() {
        assertThat(Json.parse(" {\"a\": [1, 2.5, -3e2, true, false, null, \"x\\\"\\u00e9\\n\"], \"b\": {}} "))
                .isEqualTo(Map.of(
                        "a", java.util.Arrays.asList(1.0, 2.5, -300.0, true, false, null, "x\"é\n"), "b", Map.of()));
        assertThat(Json.parse("[]")).isEqualTo(List.of());
        for (String bad :
                List.of("", "{", "{\"a\" 1}", "[1,]", "\"open", "tru", "{}x", "[".repeat(100) + "]".repeat(100))) {
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static CloudTalkException.Kind kind(int status) {
        return catchThrowableOfType(
                        CloudTalkException.class,
                        () -> CloudTalkClient.interpret(status, "{\"code\":\"X\",\"message\":\"m\"}"))
                .kind();
    }
}
