package org.cloudtalk.server.http;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.cloudtalk.server.eval.SearchCut;

/**
 * The server's counters in Prometheus text format (GET /metrics).
 *
 * <p>Concurrency: thread-safe; adders and atomic arrays, no locks on the query path.
 */
public final class ServerMetrics {
    private static final double[] LATENCY_BUCKETS = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 5};

    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final AtomicLongArray latencyBuckets = new AtomicLongArray(LATENCY_BUCKETS.length + 1);
    private final DoubleAdder latencySum = new DoubleAdder();
    private final LongAdder latencyCount = new LongAdder();
    private final LongAdder statusAsked = new LongAdder();
    private final LongAdder statusAnswered = new LongAdder();
    private final LongAdder statusReused = new LongAdder();
    private final LongAdder sampled = new LongAdder();
    private final LongAdder fallbacks = new LongAdder();
    private final LongAdder missingStatus = new LongAdder();
    private final AtomicInteger openConnections = new AtomicInteger();
    private final LongAdder connectionsRefused = new LongAdder();
    private final LongAdder requestDeadlines = new LongAdder();
    /** Filled for every cause up front, so the map is only read after construction. */
    private final Map<SearchCut, LongAdder> refinedCuts = new EnumMap<>(SearchCut.class);

    private final IntSupplier reservations;
    private final LongSupplier rejectedReplies;
    private final LongSupplier staleReplies;

    public ServerMetrics(IntSupplier reservations) {
        this(reservations, () -> 0, () -> 0);
    }

    /**
     * @param rejectedReplies status datagrams the server dropped (not authentic, not an answer to a pending request)
     * @param staleReplies statuses received whose sample was too old to use
     */
    public ServerMetrics(IntSupplier reservations, LongSupplier rejectedReplies, LongSupplier staleReplies) {
        this.reservations = reservations;
        this.rejectedReplies = rejectedReplies;
        this.staleReplies = staleReplies;
        for (SearchCut cause : SearchCut.values()) {
            refinedCuts.put(cause, new LongAdder());
        }
    }

    /** A connection was accepted; returns how many are open now, this one included. */
    int connectionOpened() {
        return openConnections.incrementAndGet();
    }

    /** The connection just opened was over the cap and is being refused. */
    void connectionRefused() {
        openConnections.decrementAndGet();
        connectionsRefused.increment();
    }

    void connectionClosed() {
        openConnections.decrementAndGet();
    }

    void requestDeadlineExceeded() {
        requestDeadlines.increment();
    }

    public int openConnections() {
        return openConnections.get();
    }

    public long connectionsRefused() {
        return connectionsRefused.sum();
    }

    public long requestDeadlinesExceeded() {
        return requestDeadlines.sum();
    }

    /** One finished request: its outcome ({@code ok}, or the rejection reason / error code class) and latency. */
    public void query(String outcome, long nanos) {
        outcomes.computeIfAbsent(outcome, unused -> new LongAdder()).increment();
        double seconds = nanos / 1e9;
        int bucket = 0;
        while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]) {
            bucket++;
        }
        latencyBuckets.incrementAndGet(bucket);
        latencySum.add(seconds);
        latencyCount.increment();
    }

    /** An answer reserved without a clean re-check (re-checks exhausted by racing queries). */
    public void reservationFallback() {
        fallbacks.increment();
    }

    /** One gather of statuses, for a query that was answered or not. */
    public void gathered(int asked, int answered, int reused) {
        statusAsked.add(asked);
        statusAnswered.add(answered);
        statusReused.add(reused);
    }

    /** An answered query: whether some host's status was missing from its gather, and whether it was sampled. */
    public void answered(boolean statusMissing, boolean wasSampled) {
        if (statusMissing) {
            missingStatus.increment();
        }
        if (wasSampled) {
            sampled.increment();
        }
    }

    /** An answer whose refined search stopped short, for {@code cause}. */
    public void refinedCut(SearchCut cause) {
        refinedCuts.get(cause).increment();
    }

    public long outcome(String outcome) {
        LongAdder count = outcomes.get(outcome);
        return count == null ? 0 : count.sum();
    }

    public String prometheusText() {
        StringBuilder out = new StringBuilder();
        out.append(
                "# HELP cloudtalk_queries_total Queries by outcome (ok, query_error, over_limits, rate_limited, ...).\n");
        out.append("# TYPE cloudtalk_queries_total counter\n");
        outcomes.forEach((outcome, count) -> out.append("cloudtalk_queries_total{outcome=\"")
                .append(outcome)
                .append("\"} ")
                .append(count.sum())
                .append('\n'));
        out.append("# HELP cloudtalk_query_latency_seconds Time from request to answer.\n");
        out.append("# TYPE cloudtalk_query_latency_seconds histogram\n");
        long cumulative = 0;
        for (int i = 0; i <= LATENCY_BUCKETS.length; i++) {
            cumulative += latencyBuckets.get(i);
            String bound = i < LATENCY_BUCKETS.length ? String.format(Locale.ROOT, "%s", LATENCY_BUCKETS[i]) : "+Inf";
            out.append("cloudtalk_query_latency_seconds_bucket{le=\"")
                    .append(bound)
                    .append("\"} ")
                    .append(cumulative)
                    .append('\n');
        }
        out.append("cloudtalk_query_latency_seconds_sum ")
                .append(String.format(Locale.ROOT, "%.6f", latencySum.sum()))
                .append('\n');
        out.append("cloudtalk_query_latency_seconds_count ")
                .append(latencyCount.sum())
                .append('\n');
        counter(out, "cloudtalk_status_requested_total", "Endpoint statuses asked of daemons.", statusAsked.sum());
        counter(out, "cloudtalk_status_replies_total", "Endpoint statuses received in time.", statusAnswered.sum());
        counter(
                out,
                "cloudtalk_status_timeouts_total",
                "Endpoint statuses not received in time.",
                statusAsked.sum() - statusAnswered.sum());
        counter(
                out,
                "cloudtalk_status_reused_total",
                "Endpoint statuses answered from recent replies.",
                statusReused.sum());
        counter(
                out,
                "cloudtalk_sampled_queries_total",
                "Queries evaluated on a sample of their candidates.",
                sampled.sum());
        counter(
                out,
                "cloudtalk_reservation_fallbacks_total",
                "Answers reserved without a clean re-check after racing queries exhausted the re-checks.",
                fallbacks.sum());
        counter(
                out,
                "cloudtalk_status_missing_queries_total",
                "Queries answered while some host's status was missing (it counted as heavily loaded).",
                missingStatus.sum());
        counter(
                out,
                "cloudtalk_status_rejected_total",
                "Status datagrams dropped: not authentic, or not an answer to a pending request from the daemon asked"
                        + " (a reply that came after its gather ended, say).",
                rejectedReplies.getAsLong());
        counter(
                out,
                "cloudtalk_status_stale_total",
                "Statuses received with a sample older than status.max.age.ms (counted as missing).",
                staleReplies.getAsLong());
        counter(
                out,
                "cloudtalk_http_connections_refused_total",
                "Connections refused with 503 because http.max.connections were open.",
                connectionsRefused.sum());
        counter(
                out,
                "cloudtalk_http_request_deadline_total",
                "Connections closed because a request was not received within http.request.deadline.ms.",
                requestDeadlines.sum());
        out.append("# HELP cloudtalk_refined_cut_total Refined answers whose search stopped short, by cause"
                        + " (no_permit, search_time, estimator_events); the answer's notes say so too.\n")
                .append("# TYPE cloudtalk_refined_cut_total counter\n");
        refinedCuts.forEach((cause, count) -> out.append("cloudtalk_refined_cut_total{cause=\"")
                .append(cause.name().toLowerCase(Locale.ROOT))
                .append("\"} ")
                .append(count.sum())
                .append('\n'));
        out.append("# HELP cloudtalk_http_connections Open API connections.\n")
                .append("# TYPE cloudtalk_http_connections gauge\n")
                .append("cloudtalk_http_connections ")
                .append(openConnections.get())
                .append('\n');
        out.append(
                "# HELP cloudtalk_reservations Hosts currently pseudo-reserved.\n# TYPE cloudtalk_reservations gauge\n");
        out.append("cloudtalk_reservations ").append(reservations.getAsInt()).append('\n');
        return out.toString();
    }

    private static void counter(StringBuilder out, String name, String help, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" counter\n");
        out.append(name).append(' ').append(value).append('\n');
    }
}
