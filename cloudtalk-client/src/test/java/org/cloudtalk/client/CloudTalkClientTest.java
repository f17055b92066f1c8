package org.cloudtalk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.EvaluatorName;
import org.junit.jupiter.api.Test;

class CloudTalkClientTest {
    /** A setting's server URL: the scheme in any case, and a host name a URL cannot hold said to be the fault. */
    @Test
    void aServerBaseTakesTheSchemeInAnyCaseAndNamesABadHost() {
        assertThat(CloudTalkClient.serverBase("HTTP://127.0.0.1:7480")).isEqualTo(URI.create("http://127.0.0.1:7480"));
        assertThat(CloudTalkClient.serverBase("http://[::1]:7480/")).isEqualTo(URI.create("http://[::1]:7480/"));
        assertThatThrownBy(() -> CloudTalkClient.serverBase("http://my_host:7480"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected http://HOST:PORT, and my_host:7480 has no host name a URL can hold (letters,"
                        + " digits, hyphens and dots; an IPv6 address in brackets)");
        assertThatThrownBy(() -> CloudTalkClient.serverBase("ftp://host:1")).hasMessage("expected http://HOST:PORT");
    }

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
        // "No limit" as a huge deadline: the same answer, not an arithmetic overflow.
        CloudTalkException forever = catchThrowableOfType(
                CloudTalkException.class,
                () -> client.query(
                        "f1 10.0.0.1 -> 10.0.0.2",
                        EvaluatorName.HEURISTIC,
                        false,
                        false,
                        Duration.ofSeconds(Long.MAX_VALUE)));
        assertThat(forever.code()).isEqualTo("CONNECTION");
        assertThatThrownBy(() ->
                        client.query("f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the deadline must be positive, not PT0S");
    }

    /** The headers and the first byte, then nothing: a hung server, or a host gone after it began to answer. */
    private static final RawServer.Script STALL_AFTER_HEADERS = out -> {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(60_000);
    };

    @Test
    void aServerThatStallsInTheMiddleOfItsAnswerCostsTheDeadline() throws Exception {
        try (RawServer stalled = RawServer.answering(STALL_AFTER_HEADERS)) {
            CloudTalkClient client = new CloudTalkClient(stalled.uri(), Duration.ofMillis(200));
            long start = System.nanoTime();
            CloudTalkException timeout = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> client.query(
                            "f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ofMillis(200)));

            assertThat(timeout.code()).isEqualTo("TIMEOUT");
            // 200 ms deadline; the margin is for a loaded 2-core machine, not for the server.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
    }

    @Test
    void sixteenCallersOfAStalledServerEachGetTheirDeadline() throws Exception {
        // As a NameNode's handlers would: one client, many calls at once, every answer stalled after its headers.
        try (RawServer stalled = RawServer.answering(STALL_AFTER_HEADERS)) {
            CloudTalkClient client = new CloudTalkClient(stalled.uri(), Duration.ofSeconds(5));
            ExecutorService callers = Executors.newFixedThreadPool(16);
            try {
                List<Future<Long>> calls = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    calls.add(callers.submit(() -> {
                        long start = System.nanoTime();
                        CloudTalkException timeout = catchThrowableOfType(
                                CloudTalkException.class,
                                () -> client.query(
                                        "f1 10.0.0.1 -> 10.0.0.2",
                                        EvaluatorName.HEURISTIC,
                                        false,
                                        false,
                                        Duration.ofMillis(300)));
                        assertThat(timeout.code()).isEqualTo("TIMEOUT");
                        return System.nanoTime() - start;
                    }));
                }
                for (Future<Long> call : calls) {
                    // 300 ms deadline; the margin is for a loaded 2-core machine, not for the server.
                    assertThat(Duration.ofNanos(call.get(30, TimeUnit.SECONDS))).isLessThan(Duration.ofSeconds(3));
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    @Test
    void anAnswerOverTheLimitIsNotReadToTheEnd() throws Exception {
        // A server gone wrong may send gigabytes within a deadline: the client stops at its limit, whatever follows.
        int length = CloudTalkClient.MAX_ANSWER_BYTES + (1 << 20);
        try (RawServer huge = RawServer.answering(out -> {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n[\"")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] letters = new byte[length - 4];
            Arrays.fill(letters, (byte) 'a');
            out.write(letters);
            out.write("\"]".getBytes(StandardCharsets.US_ASCII));
        })) {
            CloudTalkClient client = new CloudTalkClient(huge.uri(), Duration.ofSeconds(5));
            CloudTalkException tooLarge = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> client.query(
                            "f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ofSeconds(30)));

            assertThat(tooLarge.kind()).isEqualTo(CloudTalkException.Kind.UNAVAILABLE);
            assertThat(tooLarge.code()).isEqualTo("BAD_ANSWER");
            assertThat(tooLarge).hasMessage("an answer of more than " + CloudTalkClient.MAX_ANSWER_BYTES + " bytes");
        }
    }

    @Test
    void aClientWithASmallerLimitStopsThere() throws Exception {
        int length = CloudTalkClient.PLACEMENT_ANSWER_BYTES + 10;
        try (RawServer large = RawServer.answering(out -> {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n[\"")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] letters = new byte[length - 4];
            Arrays.fill(letters, (byte) 'a');
            out.write(letters);
            out.write("\"]".getBytes(StandardCharsets.US_ASCII));
        })) {
            CloudTalkClient client = new CloudTalkClient(
                    large.uri(), Duration.ofSeconds(5), Runnable::run, CloudTalkClient.PLACEMENT_ANSWER_BYTES);
            CloudTalkException tooLarge = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> client.query(
                            "f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ofSeconds(30)));

            assertThat(tooLarge.code()).isEqualTo("BAD_ANSWER");
            assertThat(tooLarge).hasMessage("an answer of more than 1048576 bytes");
        }
    }

    /** A server whose answer (a 503 at its deadline, say) leaves a moment after the deadline. */
    @Test
    void aGraceBeyondTheDeadlineWaitsForTheServersOwnAnswer() throws Exception {
        String timedOut = "{\"code\":\"TIMED_OUT\",\"message\":\"no answer within 50 ms\"}";
        try (RawServer late = RawServer.answering(out -> {
            Thread.sleep(300);
            out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: "
                            + timedOut.length() + "\r\n\r\n" + timedOut)
                    .getBytes(StandardCharsets.US_ASCII));
        })) {
            CloudTalkClient client = new CloudTalkClient(late.uri(), Duration.ofSeconds(5));
            CloudTalkException gaveUp = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> client.query(
                            "f1 10.0.0.1 -> 10.0.0.2", EvaluatorName.HEURISTIC, false, false, Duration.ofMillis(50)));
            assertThat(gaveUp.code()).isEqualTo("TIMEOUT");
            CloudTalkException answered = catchThrowableOfType(
                    CloudTalkException.class,
                    () -> client.query(
                            "f1 10.0.0.1 -> 10.0.0.2",
                            EvaluatorName.HEURISTIC,
                            false,
                            false,
                            Duration.ofMillis(50),
                            Duration.ofSeconds(5)));
            assertThat(answered.code()).isEqualTo("TIMED_OUT");
            assertThat(answered).hasMessageContaining("no answer within 50 ms");
        }
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

    /** A loopback server that reads each request's first bytes and answers it with whatever a script writes. */
    private static final class RawServer implements AutoCloseable {
        interface Script {
            void write(OutputStream out) throws Exception;
        }

        private final ServerSocket listener;
        private final Thread acceptor;
        /** One thread per connection, so that many clients are answered (or stalled) at once. */
        private final Set<Thread> connections = ConcurrentHashMap.newKeySet();

        private RawServer(ServerSocket listener, Script script) {
            this.listener = listener;
            this.acceptor = new Thread(
                    () -> {
                        while (!listener.isClosed()) {
                            Socket accepted;
                            try {
                                accepted = listener.accept();
                            } catch (IOException e) {
                                return; // closed
                            }
                            Thread connection = new Thread(
                                    () -> {
                                        try (Socket socket = accepted) {
                                            readRequest(socket.getInputStream());
                                            script.write(socket.getOutputStream());
                                        } catch (Exception e) {
                                            // The client went away, or the server closes.
                                        } finally {
                                            connections.remove(Thread.currentThread());
                                        }
                                    },
                                    "raw-server-connection");
                            connection.setDaemon(true);
                            connections.add(connection);
                            connection.start();
                        }
                    },
                    "raw-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        /** Reads a request to its end: closing a socket with input unread would reset the connection. */
        private static void readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int next = in.read();
                if (next < 0) {
                    return;
                }
                head.append((char) next);
            }
            Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
            in.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
        }

        static RawServer answering(Script script) throws IOException {
            return new RawServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), script);
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + listener.getLocalPort());
        }

        @Override
        public void close() throws Exception {
            listener.close();
            acceptor.join(5000);
            for (Thread connection : connections) {
                connection.interrupt();
                connection.join(5000);
            }
        }
    }

    private static CloudTalkException.Kind kind(int status) {
        return catchThrowableOfType(
                        CloudTalkException.class,
                        () -> CloudTalkClient.interpret(status, "{\"code\":\"X\",\"message\":\"m\"}"))
                .kind();
    }
}
