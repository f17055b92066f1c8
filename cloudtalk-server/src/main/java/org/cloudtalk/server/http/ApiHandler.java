package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.client.api.HttpApi;
import org.cloudtalk.client.api.HttpApi.Field;
import org.cloudtalk.client.api.HttpApi.Param;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.parser.QueryText;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryRejectedException;
import org.cloudtalk.server.query.QueryService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the tenant API: {@code POST /v1/query}, {@code GET /metrics}, {@code GET /healthz}. Queries are answered on
 * the worker executor (gathering status waits on the network), never on the event loop; a full executor answers 503.
 * Errors are JSON with a code and a message, never a stack trace.
 *
 * <p>Sharable: it holds only thread-safe collaborators.
 */
@ChannelHandler.Sharable
public final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    private final QueryService service;
    private final Admission admission;
    private final Executor workers;
    private final ServerMetrics metrics;
    private final Duration defaultTimeout;

    public ApiHandler(
            QueryService service,
            Admission admission,
            Executor workers,
            ServerMetrics metrics,
            Duration defaultTimeout) {
        this.service = requireNonNull(service, "service is null");
        this.admission = requireNonNull(admission, "admission is null");
        this.workers = requireNonNull(workers, "workers is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.defaultTimeout = requireNonNull(defaultTimeout, "defaultTimeout is null");
        // Build one 503 now: the first would otherwise load and link the JSON writer on the event loop, at a
        // deadline, while the workers hold the processors (measured: half a second under load).
        timedOut(new QueryService.Options("warm-up", EvaluatorName.REFINED, false, defaultTimeout, false))
                .response()
                .release();
    }

    ServerMetrics metrics() {
        return metrics;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            // The decoder discards everything after a bad message: answer, then close rather than leave it dead.
            Throwable cause = request.decoderResult().cause();
            String message = cause instanceof TooLongFrameException
                    ? "request line or headers too long"
                    : "malformed HTTP request";
            ctx.writeAndFlush(Responses.closing(Responses.error(ApiError.BAD_REQUEST, message)));
            return;
        }
        if (request.protocolVersion().majorVersion() != 1) {
            // An HTTP/2 client with prior knowledge sends "PRI * HTTP/2.0" and then binary frames: say so once, close.
            ctx.writeAndFlush(Responses.closing(Responses.error(
                    ApiError.HTTP_VERSION_NOT_SUPPORTED,
                    request.protocolVersion().text() + " is not supported; the API speaks HTTP/1.1")));
            return;
        }
        String target;
        try {
            target = originForm(request.uri());
        } catch (IllegalArgumentException e) {
            respond(
                    ctx,
                    request,
                    Responses.error(ApiError.BAD_REQUEST, "the request target is not a URI: " + e.getMessage()));
            return;
        }
        String path;
        Map<String, List<String>> parameters;
        try {
            QueryStringDecoder uri = new QueryStringDecoder(target);
            path = uri.path();
            parameters = uri.parameters();
        } catch (IllegalArgumentException e) {
            respond(ctx, request, Responses.error(ApiError.BAD_REQUEST, "bad percent-encoding in the request URI"));
            return;
        }
        switch (path) {
            case HttpApi.QUERY_PATH -> {
                if (!request.method().equals(HttpMethod.POST)) {
                    respond(ctx, request, methodNotAllowed("POST"));
                    return;
                }
                query(ctx, request, parameters);
            }
            case HttpApi.METRICS_PATH -> respond(
                    ctx,
                    request,
                    isGet(request)
                            ? Responses.text(
                                    HttpResponseStatus.OK, metrics.prometheusText(), "text/plain; version=0.0.4")
                            : methodNotAllowed("GET, HEAD"));
            case HttpApi.HEALTH_PATH -> respond(
                    ctx,
                    request,
                    isGet(request)
                            ? Responses.json(HttpResponseStatus.OK, Map.of("status", "ok"))
                            : methodNotAllowed("GET, HEAD"));
            default -> respond(ctx, request, Responses.error(ApiError.NOT_FOUND, "no such resource: " + path));
        }
    }

    private void query(ChannelHandlerContext ctx, FullHttpRequest request, Map<String, List<String>> parameters) {
        long start = System.nanoTime();
        QueryService.Options options;
        try {
            options = options(ctx, parameters);
        } catch (IllegalArgumentException e) {
            metrics.query("bad_parameter", System.nanoTime() - start);
            respond(ctx, request, Responses.error(ApiError.BAD_PARAMETER, e.getMessage()));
            return;
        }
        String text;
        try {
            text = QueryText.decode(request.content().nioBuffer());
        } catch (QueryException e) {
            metrics.query("query_error", System.nanoTime() - start);
            respond(ctx, request, Responses.queryErrors(e.errors()));
            return;
        }
        Admission.Ticket ticket;
        try {
            ticket = admission.admit(options.tenant());
        } catch (QueryRejectedException e) {
            // Refused here, on the I/O thread: a flooding tenant never occupies the queue or a worker.
            metrics.query("rate_limited", System.nanoTime() - start);
            respond(ctx, request, Responses.error(e.reason(), e.getMessage()));
            return;
        }
        // The clock starts now: time spent waiting for a worker counts against the deadline.
        Deadline deadline = Deadline.after(options.timeout());
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        OnceReply reply = new OnceReply(ctx, keepAlive);
        // Answered 503 at the deadline from the event loop, whether the query is still queued or running. The tenant's
        // slot is free once it has its answer, though the evaluation may run on until its next deadline check: a
        // client that sends its next query then must not be refused for one it was answered.
        reply.sendAt(deadline, () -> {
            ticket.close();
            return count(timedOut(options), start);
        });
        try {
            workers.execute(new QueryTask(text, options, deadline, start, ticket, reply));
        } catch (RejectedExecutionException e) {
            reply.claim(); // answered below, not by the timer
            ticket.close();
            if (workers instanceof ExecutorService pool && pool.isShutdown()) {
                respond(ctx, request, count(stopping(), start));
                return;
            }
            metrics.query("overloaded", System.nanoTime() - start);
            respond(
                    ctx,
                    request,
                    Responses.error(
                            ApiError.OVERLOADED, "the server is answering as many queries as it can; retry shortly"));
        }
    }

    /**
     * One admitted query on its way through a worker. A server that stops refuses those still queued
     * ({@link #refuse}): their clients get a 503 rather than a connection closed without an answer.
     */
    public final class QueryTask implements Runnable {
        private final String text;
        private final QueryService.Options options;
        private final Deadline deadline;
        private final long start;
        private final Admission.Ticket ticket;
        private final OnceReply reply;

        QueryTask(
                String text,
                QueryService.Options options,
                Deadline deadline,
                long start,
                Admission.Ticket ticket,
                OnceReply reply) {
            this.text = text;
            this.options = options;
            this.deadline = deadline;
            this.start = start;
            this.ticket = ticket;
            this.reply = reply;
        }

        @Override
        public void run() {
            FullHttpResponse response = null;
            try (ticket) {
                if (reply.isClaimed()) {
                    return; // its deadline passed while it waited for a worker: answered 503, not run at all
                }
                Outcome outcome = answer(text, options, deadline);
                if (reply.claim()) {
                    if (deadline.expired() && outcome.answer().isPresent()) {
                        // Found in time but ready only after the deadline (reserving, writing the JSON): the
                        // client was promised an answer or a 503 by then.
                        outcome.response().release();
                        outcome = timedOut(options);
                    }
                    response = count(outcome, start);
                } else {
                    outcome.response().release();
                }
            }
            // Released before the answer leaves: a client that sends its next query as soon as it has the answer
            // must not find its previous one still counted against its in-flight cap.
            if (response != null) {
                reply.write(response);
            }
        }

        /** Answers 503 UNAVAILABLE without running the query: the server is stopping. */
        public void refuse() {
            ticket.close();
            if (reply.claim()) {
                reply.write(count(stopping(), start));
            }
        }
    }

    /** A response to send and what it counts as in the metrics, once it is the one sent. */
    private record Outcome(FullHttpResponse response, String label, Optional<QueryService.Answer> answer) {}

    private Outcome answer(String text, QueryService.Options options, Deadline deadline) {
        try {
            QueryService.Answer answer = service.answer(text, options, deadline);
            return new Outcome(Responses.json(HttpResponseStatus.OK, body(answer)), "ok", Optional.of(answer));
        } catch (QueryException e) {
            return new Outcome(Responses.queryErrors(e.errors()), "query_error", Optional.empty());
        } catch (QueryRejectedException e) {
            return new Outcome(
                    Responses.error(e.reason(), e.getMessage()),
                    e.reason().name().toLowerCase(Locale.ROOT),
                    Optional.empty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return stopping();
        } catch (RuntimeException e) {
            log.error("failed to answer a query", e);
            return new Outcome(
                    Responses.error(ApiError.INTERNAL, "the server could not answer; the cause is in its log"),
                    "internal_error",
                    Optional.empty());
        }
    }

    /** The connection closes with it: a keep-alive client would otherwise send its next request into the close. */
    private static Outcome stopping() {
        return new Outcome(
                Responses.closing(Responses.error(ApiError.UNAVAILABLE, "the server is stopping")),
                "unavailable",
                Optional.empty());
    }

    private static Outcome timedOut(QueryService.Options options) {
        ApiError reason = ApiError.TIMED_OUT;
        return new Outcome(
                Responses.error(reason, "no answer within " + options.timeout().toMillis() + " ms"),
                reason.name().toLowerCase(Locale.ROOT),
                Optional.empty());
    }

    /** Counts the outcome that was sent; returns its response. */
    private FullHttpResponse count(Outcome outcome, long start) {
        outcome.answer().ifPresent(answer -> {
            // The gather itself is counted as it happens (CountedStatusSource), answered or not.
            metrics.answered(answer.statusAnswered() < answer.statusAsked(), answer.sampled());
            if (answer.reservationFallback()) {
                metrics.reservationFallback();
            }
            answer.cut().ifPresent(metrics::refinedCut);
        });
        metrics.query(outcome.label(), System.nanoTime() - start);
        return outcome.response();
    }

    private static Map<String, Object> body(QueryService.Answer answer) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(Field.BINDINGS, new java.util.TreeMap<>(answer.binding().values()));
        body.put(Field.EVALUATOR, answer.evaluator().wireName());
        body.put(
                Field.ESTIMATED_COMPLETION_SECONDS,
                answer.completionSeconds().isPresent()
                        ? answer.completionSeconds().getAsDouble()
                        : null);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put(Field.STATUS_ASKED, answer.statusAsked());
        status.put(Field.STATUS_ANSWERED, answer.statusAnswered());
        status.put(Field.STATUS_REUSED, answer.statusReused());
        status.put(Field.STATUS_SAMPLED, answer.sampled());
        // Hosts asked whose status did not come (in time, or fresh enough): they counted as heavily loaded.
        status.put(Field.STATUS_MISSING, answer.statusAsked() - answer.statusAnswered());
        body.put(Field.STATUS, status);
        body.put(Field.ELAPSED_MICROS, answer.elapsedNanos() / 1000);
        if (!answer.notes().isEmpty()) {
            body.put(Field.NOTES, answer.notes());
        }
        if (!answer.candidateScores().isEmpty()) {
            // The heuristic's score of each candidate (bytes/s of its scarcest resource, capacity - use / W);
            // "unconstrained" where no resource limits the candidate, e.g. a flow that would be local.
            Map<String, Map<String, Object>> explain = new LinkedHashMap<>();
            answer.candidateScores().forEach((variable, scores) -> {
                Map<String, Object> shown = new LinkedHashMap<>();
                scores.forEach((candidate, score) ->
                        shown.put(candidate, score == Double.MAX_VALUE ? Field.UNCONSTRAINED : score));
                explain.put(variable, shown);
            });
            body.put(Field.EXPLAIN, explain);
        }
        return body;
    }

    private QueryService.Options options(ChannelHandlerContext ctx, Map<String, List<String>> parameters) {
        EvaluatorName kind =
                EvaluatorName.fromWireName(parameter(parameters, Param.EVALUATOR, EvaluatorName.REFINED.wireName()));
        String info = parameter(parameters, Param.INFO, Param.DYNAMIC);
        if (!info.equals(Param.DYNAMIC) && !info.equals(Param.STATIC)) {
            throw new IllegalArgumentException("info must be dynamic or static, not '" + info + "'");
        }
        Duration timeout = defaultTimeout;
        String timeoutMs = parameter(parameters, Param.TIMEOUT_MS, null);
        if (timeoutMs != null) {
            // ASCII digits only: Long.parseLong also takes a sign and the digits of other scripts.
            long millis = timeoutMs.matches("[0-9]{1,10}") ? Long.parseLong(timeoutMs) : -1;
            if (millis < 1 || millis > HttpApi.MAX_TIMEOUT_MILLIS) {
                throw new IllegalArgumentException(
                        Param.TIMEOUT_MS + " must be 1 to " + HttpApi.MAX_TIMEOUT_MILLIS + ", not '" + timeoutMs + "'");
            }
            timeout = Duration.ofMillis(millis);
        }
        String explain = parameter(parameters, Param.EXPLAIN, "false");
        if (!explain.equals("true") && !explain.equals("false")) {
            throw new IllegalArgumentException("explain must be true or false, not '" + explain + "'");
        }
        String tenant =
                ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
        return new QueryService.Options(tenant, kind, info.equals(Param.STATIC), timeout, explain.equals("true"));
    }

    /** @throws IllegalArgumentException when the parameter is given more than once: which one was meant is unclear */
    private static String parameter(Map<String, List<String>> parameters, String name, String defaultValue) {
        List<String> values = parameters.get(name);
        if (values != null && values.size() > 1) {
            throw new IllegalArgumentException(name + " is given " + values.size() + " times; give it once");
        }
        return values == null || values.isEmpty() ? defaultValue : values.get(0);
    }

    /** GET, or HEAD, which the codec answers with GET's headers and no body ({@link ApiCodec}). */
    private static boolean isGet(FullHttpRequest request) {
        return request.method().equals(HttpMethod.GET) || request.method().equals(HttpMethod.HEAD);
    }

    /**
     * The path and query of a request target: as sent in the usual origin form ({@code /v1/query?...}), or taken
     * from the absolute form ({@code http://host:port/v1/query?...}) that RFC 9112 §3.2.2 says servers must accept.
     *
     * @throws IllegalArgumentException when the absolute form is not a valid URI
     */
    static String originForm(String target) {
        if (target.startsWith("/") || !target.regionMatches(true, 0, "http", 0, 4)) {
            return target;
        }
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!uri.isAbsolute() || uri.getRawAuthority() == null) {
            return target;
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }

    private static FullHttpResponse methodNotAllowed(String allowed) {
        FullHttpResponse response = Responses.error(ApiError.METHOD_NOT_ALLOWED, "use " + allowed);
        response.headers().set(HttpHeaderNames.ALLOW, allowed);
        return response;
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse response) {
        ctx.writeAndFlush(Responses.withConnection(response, HttpUtil.isKeepAlive(request)));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing an API connection after an error", cause);
        ctx.close();
    }
}
