package org.cloudtalk.client;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.client.api.HttpApi;
import org.cloudtalk.client.api.HttpApi.Field;
import org.cloudtalk.client.api.HttpApi.Param;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * Client of a CloudTalk server's HTTP API. One instance per server, shared: the JDK client reuses connections. Every
 * call has a deadline; whatever goes wrong comes back as a {@link CloudTalkException} whose kind says what to do.
 *
 * <p>Concurrency: thread-safe.
 */
public final class CloudTalkClient {
    private static final Duration LONGEST_DEADLINE = Duration.ofDays(1);

    /**
     * The largest answer read: 40 times what an answer with every candidate's score takes at the server's default
     * limits (10,000 candidate values, about 400 KB). A server gone wrong must not fill the caller's heap.
     */
    public static final int MAX_ANSWER_BYTES = 16 << 20;

    /**
     * What the placement plugins read: an answer with every candidate's score for a query within the server's default
     * limits takes about 400 KB, and their queries have far fewer candidates.
     */
    public static final int PLACEMENT_ANSWER_BYTES = 1 << 20;

    private final URI base;
    private final HttpClient http;
    private final int maxAnswerBytes;

    /** Why a connection failed, in words: the JDK's exceptions often carry no message at all. */
    private static String why(IOException e) {
        if (e instanceof java.net.ConnectException) {
            return "connection refused (is a CloudTalk server listening there?)";
        }
        if (e instanceof java.net.http.HttpConnectTimeoutException) {
            return "no connection within the connect timeout";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    public CloudTalkClient(URI base, Duration connectTimeout) {
        this(base, HttpClient.newBuilder(), connectTimeout, MAX_ANSWER_BYTES);
    }

    /**
     * A client whose HTTP work runs on {@code executor} instead of the JDK's default pool (which keeps idle threads
     * for a minute): e.g. one its owner shuts down, or one that runs each task at once on the thread handing it over.
     */
    public CloudTalkClient(URI base, Duration connectTimeout, Executor executor) {
        this(base, connectTimeout, executor, MAX_ANSWER_BYTES);
    }

    /**
     * As {@link #CloudTalkClient(URI, Duration, Executor)}, reading answers of at most {@code maxAnswerBytes}: a
     * process asking from many threads at once (a NameNode's handlers) holds up to that many bytes per call, several
     * times over while it parses them, and its queries' answers are far smaller than the general bound.
     */
    public CloudTalkClient(URI base, Duration connectTimeout, Executor executor, int maxAnswerBytes) {
        this(
                base,
                HttpClient.newBuilder().executor(requireNonNull(executor, "executor is null")),
                connectTimeout,
                maxAnswerBytes);
    }

    private CloudTalkClient(URI base, HttpClient.Builder builder, Duration connectTimeout, int maxAnswerBytes) {
        if (maxAnswerBytes < 1 || maxAnswerBytes > MAX_ANSWER_BYTES) {
            throw new IllegalArgumentException(
                    "maxAnswerBytes must be from 1 to " + MAX_ANSWER_BYTES + ": " + maxAnswerBytes);
        }
        this.maxAnswerBytes = maxAnswerBytes;
        this.base = requireNonNull(base, "base is null");
        this.http = builder.version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(requireNonNull(connectTimeout, "connectTimeout is null"))
                .build();
    }

    /**
     * The base URL of a server as a plugin's setting names it, {@code http://HOST:PORT} with at most a {@code /} after
     * it. Queries go to {@link HttpApi#QUERY_PATH} at that host and port, so a path, a query or a user name would be
     * dropped without a word: they are refused, as are a missing port and one outside 1-65535.
     *
     * @throws IllegalArgumentException saying what is wrong, for a message {@code Invalid value V for K: reason}
     */
    public static URI serverBase(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getReason());
        }
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("expected http://HOST:PORT");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(
                    uri.getRawAuthority() == null
                            ? "expected http://HOST:PORT"
                            : "expected http://HOST:PORT, and " + uri.getRawAuthority()
                                    + " has no host name a URL can hold"
                                    + " (letters, digits, hyphens and dots; an IPv6 address in brackets)");
        }
        if (uri.getPort() < 1 || uri.getPort() > 65535) {
            throw new IllegalArgumentException("expected http://HOST:PORT with a port from 1 to 65535");
        }
        if (uri.getRawUserInfo() != null
                || !(uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    "expected http://HOST:PORT and nothing more (queries go to " + HttpApi.QUERY_PATH + ")");
        }
        // Schemes are case-insensitive (RFC 3986 §3.1): HTTP:// is http://, written as the HTTP client expects.
        return uri.getScheme().equals("http")
                ? uri
                : URI.create("http" + uri.toString().substring(4));
    }

    /**
     * Sends a built query. The answer is checked against it (every variable bound once, to one of its candidates,
     * distinct unless shared): one that does not fit is a {@code BAD_ANSWER}, never a result.
     */
    public QueryResult query(Query query, EvaluatorName evaluator, boolean staticInfo, Duration deadline)
            throws CloudTalkException, InterruptedException {
        QueryResult result = query(QueryPrinter.print(query), evaluator, staticInfo, false, deadline);
        Optional<String> problem = AnswerCheck.problem(query, result.bindings());
        if (problem.isPresent()) {
            throw new CloudTalkException(
                    CloudTalkException.Kind.UNAVAILABLE,
                    "BAD_ANSWER",
                    "the answer does not fit the query: " + problem.get(),
                    0,
                    0,
                    null);
        }
        return result;
    }

    /**
     * Sends query text; the deadline (positive; more than a day counts as a day) covers the whole call and is also the
     * server's timeout. With {@code explain}, the result carries each candidate's score.
     */
    public QueryResult query(
            String text, EvaluatorName evaluator, boolean staticInfo, boolean explain, Duration deadline)
            throws CloudTalkException, InterruptedException {
        return query(text, evaluator, staticInfo, explain, deadline, Duration.ZERO);
    }

    /**
     * As {@link #query(String, EvaluatorName, boolean, boolean, Duration)}, waiting up to {@code grace} longer than the
     * server's deadline: for a caller that would rather have the server's own answer (its 503 at the deadline
     * included) than give up first, and whose first call also sets up the connection (a command-line tool).
     */
    public QueryResult query(
            String text,
            EvaluatorName evaluator,
            boolean staticInfo,
            boolean explain,
            Duration deadline,
            Duration grace)
            throws CloudTalkException, InterruptedException {
        requireNonNull(text, "text is null");
        requireNonNull(deadline, "deadline is null");
        requireNonNull(grace, "grace is null");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("the deadline must be positive, not " + deadline);
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("the grace must not be negative, not " + grace);
        }
        // "No limit" written as a huge duration would overflow the clock arithmetic below; the server answers within
        // its own limit long before a day is up.
        deadline = deadline.compareTo(LONGEST_DEADLINE) > 0 ? LONGEST_DEADLINE : deadline;
        String parameters = Param.EVALUATOR + "=" + evaluator.wireName()
                + "&" + Param.INFO + "=" + (staticInfo ? Param.STATIC : Param.DYNAMIC)
                + "&" + Param.EXPLAIN + "=" + explain
                + "&" + Param.TIMEOUT_MS + "="
                + Math.max(1, Math.min(HttpApi.MAX_TIMEOUT_MILLIS, deadline.toMillis()));
        Duration wait = deadline.plus(grace.compareTo(LONGEST_DEADLINE) > 0 ? LONGEST_DEADLINE : grace);
        HttpRequest request = HttpRequest.newBuilder(base.resolve(HttpApi.QUERY_PATH + "?" + parameters))
                .timeout(wait)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8))
                .build();
        // The request's own timeout ends when the answer's headers arrive: a server that stalls in the body (or a host
        // that vanishes after sending the headers) would hold the call for good, so the body has the deadline too.
        // send, not sendAsync: the public sendAsync hands every answer on to the common pool, a thread hand-off per
        // query that costs a NameNode's block allocations throughput.
        long end = System.nanoTime() + wait.toNanos();
        HttpResponse<String> response;
        try {
            response = http.send(request, info -> new BoundedBody(end, maxAnswerBytes));
        } catch (HttpTimeoutException e) {
            throw new CloudTalkException(
                    CloudTalkException.Kind.UNAVAILABLE,
                    "TIMEOUT",
                    "no answer from " + base + " within " + wait.toMillis() + " ms",
                    0,
                    0,
                    e);
        } catch (IOException e) {
            if (causedBy(e, AnswerTooLarge.class)) {
                throw new CloudTalkException(
                        CloudTalkException.Kind.UNAVAILABLE,
                        "BAD_ANSWER",
                        "an answer of more than " + maxAnswerBytes + " bytes",
                        0,
                        0,
                        e);
            }
            throw new CloudTalkException(
                    CloudTalkException.Kind.UNAVAILABLE, "CONNECTION", "cannot reach " + base + ": " + why(e), 0, 0, e);
        }
        return interpret(response.statusCode(), response.body());
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    /** An answer longer than the client reads. */
    private static final class AnswerTooLarge extends IOException {
        AnswerTooLarge(int maxBytes) {
            super("an answer of more than " + maxBytes + " bytes");
        }
    }

    /**
     * An answer's text, read up to {@code maxBytes} and until the call's deadline ({@link BodyDeadlines});
     * beyond either the exchange is cancelled and the body fails ({@link AnswerTooLarge}, {@link HttpTimeoutException}).
     *
     * <p>Concurrency: the HTTP client signals a subscriber serially, so the buffer needs no lock; the subscription is
     * also read by the deadline's thread.
     */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<String>, BodyDeadlines.Watched {
        private final CompletableFuture<String> text = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final long endNanos;
        private final int maxBytes;
        private volatile Flow.Subscription subscription;

        BoundedBody(long endNanos, int maxBytes) {
            this.endNanos = endNanos;
            this.maxBytes = maxBytes;
            BodyDeadlines.watch(this);
        }

        @Override
        public long endNanos() {
            return endNanos;
        }

        @Override
        public void expire() {
            if (text.completeExceptionally(new HttpTimeoutException("the answer's body did not arrive in time"))) {
                cancel();
            }
        }

        @Override
        public CompletionStage<String> getBody() {
            return text;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (text.isDone()) { // the deadline passed before the body began
                subscription.cancel();
                return;
            }
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                if (text.isDone()) {
                    cancel();
                    return;
                }
                if (buffer.remaining() > maxBytes - bytes.size()) {
                    fail(new AnswerTooLarge(maxBytes));
                    cancel();
                    return;
                }
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable failure) {
            fail(failure);
        }

        @Override
        public void onComplete() {
            BodyDeadlines.done(this);
            text.complete(bytes.toString(StandardCharsets.UTF_8));
        }

        private void fail(Throwable failure) {
            BodyDeadlines.done(this);
            text.completeExceptionally(failure);
        }

        private void cancel() {
            Flow.Subscription current = subscription;
            if (current != null) {
                current.cancel();
            }
        }
    }

    static QueryResult interpret(int status, String body) throws CloudTalkException {
        Map<String, Object> json;
        try {
            Object parsed = Json.parse(body);
            if (!(parsed instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("not a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) parsed;
            json = object;
        } catch (IllegalArgumentException e) {
            if (status == 200) {
                throw new CloudTalkException(
                        CloudTalkException.Kind.UNAVAILABLE,
                        "BAD_ANSWER",
                        "HTTP " + status + " with an unreadable body: " + e.getMessage(),
                        0,
                        0,
                        e);
            }
            // An error page from something in between (a proxy's 503): the status says what happened.
            json = Map.of();
        }
        if (status != 200) {
            String code = json.get(Field.CODE) instanceof String s ? s : "HTTP_" + status;
            String message = json.get(Field.MESSAGE) instanceof String s ? s : "HTTP " + status;
            CloudTalkException.Kind kind =
                    switch (status) {
                        case 400 -> CloudTalkException.Kind.QUERY_ERROR;
                        case 413, 422 -> CloudTalkException.Kind.REFUSED;
                        case 429 -> CloudTalkException.Kind.RATE_LIMITED;
                        default -> CloudTalkException.Kind.UNAVAILABLE;
                    };
            throw new CloudTalkException(
                    kind, code, message, integer(json.get(Field.LINE)), integer(json.get(Field.COLUMN)), null);
        }
        try {
            Map<String, String> bindings = new LinkedHashMap<>();
            ((Map<?, ?>) json.get(Field.BINDINGS))
                    .forEach((name, value) -> bindings.put((String) name, (String) value));
            Object estimate = json.get(Field.ESTIMATED_COMPLETION_SECONDS);
            Map<?, ?> statusInfo = (Map<?, ?>) json.get(Field.STATUS);
            Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
            if (json.get(Field.EXPLAIN) instanceof Map<?, ?> explain) {
                explain.forEach((variable, candidates) -> {
                    Map<String, Double> byCandidate = new LinkedHashMap<>();
                    ((Map<?, ?>) candidates)
                            .forEach((candidate, score) -> byCandidate.put(
                                    (String) candidate, score instanceof Double d ? d : Double.POSITIVE_INFINITY));
                    scores.put((String) variable, byCandidate);
                });
            }
            return new QueryResult(
                    bindings,
                    (String) json.get(Field.EVALUATOR),
                    estimate instanceof Double d ? OptionalDouble.of(d) : OptionalDouble.empty(),
                    integer(statusInfo.get(Field.STATUS_ASKED)),
                    integer(statusInfo.get(Field.STATUS_ANSWERED)),
                    integer(statusInfo.get(Field.STATUS_REUSED)),
                    Boolean.TRUE.equals(statusInfo.get(Field.STATUS_SAMPLED)),
                    ((Double) json.get(Field.ELAPSED_MICROS)).longValue(),
                    json.get(Field.NOTES) instanceof List<?> notes
                            ? notes.stream().map(String::valueOf).toList()
                            : List.of(),
                    scores,
                    body);
        } catch (ClassCastException | NullPointerException e) {
            throw new CloudTalkException(
                    CloudTalkException.Kind.UNAVAILABLE,
                    "BAD_ANSWER",
                    "the server's answer lacks expected fields: " + excerpt(body),
                    0,
                    0,
                    e);
        }
    }

    /** The start of an answer, for a message: an answer may be megabytes long. */
    private static String excerpt(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "... (" + body.length() + " characters)";
    }

    private static int integer(Object value) {
        return value instanceof Double d ? d.intValue() : 0;
    }
}
