package org.cloudtalk.hadoop.hint;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.CloudTalkException;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.lang.ast.Query;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the local CloudTalk server on behalf of a Hadoop daemon's thread, never holding that thread past the
 * deadline: the HTTP call runs on a small pool of hint threads and the caller waits at most the deadline for it.
 * Whatever goes wrong is an empty answer, counted by cause in {@link HintMetrics} and logged at most once per
 * interval; the caller then makes the host system's default choice.
 *
 * <p>After a timeout or an unreachable server, callers fall back at once ({@link Fallback#BACKOFF}) for
 * {@link HintSettings#backoff()}, so a dead or hung server costs one caller the deadline per back-off, not every one.
 *
 * <p>Concurrency: thread-safe. At most {@link HintSettings#threads()} calls are in flight; beyond that a caller
 * falls back at once ({@link Fallback#BUSY}) rather than queueing behind a slow server. The back-off end is a
 * volatile timestamp; racing writers each set a valid end.
 */
public final class HintClient {
    private static final Logger log = LoggerFactory.getLogger(HintClient.class);
    /**
     * Clients by plugin and settings. Hadoop creates more than one instance of a plugin in a daemon (the NameNode's
     * fsck builds its own placement policy per run); they share one client, so one set of counters and connections.
     */
    private static final ConcurrentMap<List<Object>, HintClient> SHARED = new ConcurrentHashMap<>();

    private final HintSettings settings;
    private final CloudTalkClient client;
    private final HintMetrics metrics;
    private final FallbackLog fallbackLog;
    private final ThreadPoolExecutor pool;
    /** {@link System#nanoTime()} before which the server is not asked (after a timeout or a refused connection). */
    private volatile long quietUntil = System.nanoTime();

    public HintClient(String plugin, HintSettings settings, HintMetrics metrics) {
        this.settings = requireNonNull(settings, "settings is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        // The JDK client's own work (sending, reading the answer) runs on the thread that hands it over, mostly its
        // selector thread, instead of on a pool: a hint thread waits for it anyway, and each hand-off cost the
        // NameNode's block allocations throughput.
        this.client = new CloudTalkClient(
                settings.server(), settings.deadline(), HintClient::runHere, CloudTalkClient.PLACEMENT_ANSWER_BYTES);
        this.fallbackLog = new FallbackLog(plugin, settings.logInterval());
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(
                0, settings.threads(), 60, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "cloudtalk-" + plugin + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /** The process's client for {@code plugin} with these settings, its metrics registered as {@code metricsName}. */
    public static HintClient shared(String plugin, HintSettings settings, String metricsName, String description) {
        return SHARED.computeIfAbsent(
                List.of(plugin, settings),
                key -> new HintClient(plugin, settings, HintMetrics.register(metricsName, description)));
    }

    public HintMetrics metrics() {
        return metrics;
    }

    /**
     * The server's answer with each candidate's score ({@code explain}), or empty after counting why not. Returns
     * within the deadline (plus scheduling noise) whatever the server does.
     */
    public Optional<QueryResult> ask(Query query) {
        return printed(query).flatMap(this::ask);
    }

    /** Like {@link #ask(Query)}, for a query printed already. */
    public Optional<QueryResult> ask(PrintedQuery query) {
        if (System.nanoTime() - quietUntil < 0) {
            fallback(Fallback.BACKOFF, "the server failed less than " + settings.backoff() + " ago");
            return Optional.empty();
        }
        String text = query.text();
        long start = System.nanoTime();
        Future<QueryResult> call;
        try {
            call = pool.submit(() -> client.query(text, settings.evaluator(), false, true, settings.deadline()));
        } catch (RejectedExecutionException e) {
            fallback(Fallback.BUSY, settings.threads() + " queries already waiting on " + settings.server());
            return Optional.empty();
        }
        try {
            return Optional.of(call.get(settings.deadline().toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            call.cancel(true);
            fallback(Fallback.TIMEOUT, "no answer from " + settings.server() + " within " + settings.deadline());
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            fallback(Fallback.ERROR, "interrupted while waiting for " + settings.server());
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof CloudTalkException failure) {
                fallback(causeOf(failure), failure.code() + ": " + failure.getMessage());
            } else {
                fallback(Fallback.ERROR, cause.toString());
            }
        } finally {
            metrics.query(System.nanoTime() - start);
        }
        return Optional.empty();
    }

    /**
     * CloudTalk's order of preference over {@code candidates} (canonical address texts): the hosts bound to the
     * query's variables, in declaration order, then the other candidates by their best score, highest first. Empty,
     * after counting why, when there is no answer or it binds a variable to a host that is not a candidate (or binds
     * it twice, or not at all): the caller then keeps its default order. A returned order counts as an answer used.
     */
    public Optional<List<String>> preferenceOrder(Query query, Set<String> candidates) {
        Optional<PrintedQuery> printed = printed(query);
        if (printed.isEmpty()) {
            return Optional.empty();
        }
        Optional<List<List<String>>> orders = preferenceOrders(
                printed.get(), List.of(List.copyOf(query.variables().keySet())), candidates);
        orders.ifPresent(used -> metrics.answerUsed());
        return orders.map(all -> all.get(0));
    }

    /**
     * One order of preference over {@code candidates} per group of the query's variables (e.g. the replicas of one
     * block, for a query placing several blocks): the group's hosts in the group's order, then every other candidate
     * by its best score, highest first. Empty, after counting why, like
     * {@link #preferenceOrder}. The caller counts each order it uses as an answer used.
     */
    public Optional<List<List<String>>> preferenceOrders(
            PrintedQuery query, List<List<String>> groups, Set<String> candidates) {
        Optional<QueryResult> answer = ask(query);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        QueryResult result = answer.get();
        List<List<String>> bound = new ArrayList<>(groups.size());
        Set<String> boundHosts = new HashSet<>();
        for (List<String> group : groups) {
            List<String> hosts = new ArrayList<>(group.size());
            for (String variable : group) {
                String host = result.bindings().get(variable);
                if (host == null || !candidates.contains(host) || !boundHosts.add(host)) {
                    fallback(
                            Fallback.BAD_ANSWER,
                            "the answer binds " + variable + " to " + host + ", not one of the distinct candidates "
                                    + candidates);
                    return Optional.empty();
                }
                hosts.add(host);
            }
            bound.add(hosts);
        }
        int declared = query.query().declarations().stream()
                .mapToInt(declaration -> declaration.names().size())
                .sum();
        if (result.bindings().size() != declared) {
            // Variables the query does not have: an answer to another query, or a server gone wrong.
            fallback(
                    Fallback.BAD_ANSWER,
                    "the answer binds " + result.bindings().size() + " variables; the query has " + declared);
            return Optional.empty();
        }
        List<String> byScore = candidates.stream()
                .sorted(Comparator.comparingDouble((String candidate) -> bestScore(result.candidateScores(), candidate))
                        .reversed())
                .toList();
        List<List<String>> orders = new ArrayList<>(groups.size());
        for (List<String> hosts : bound) {
            List<String> order = new ArrayList<>(candidates.size());
            order.addAll(hosts);
            byScore.stream().filter(candidate -> !hosts.contains(candidate)).forEach(order::add);
            orders.add(List.copyOf(order));
        }
        return Optional.of(List.copyOf(orders));
    }

    /**
     * Runs one of the JDK client's tasks at once. A task's exception stays here, logged: thrown out of the executor,
     * the JDK client would take it for a refused hand-off and close its selector for good, leaving the process's
     * hints unavailable until it restarts. The call the task belonged to then ends at its deadline, as it would have
     * after a pool thread died of the same exception.
     */
    static void runHere(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.warn("a task of the HTTP client failed; its query will time out", e);
        }
    }

    private Optional<PrintedQuery> printed(Query query) {
        try {
            return Optional.of(PrintedQuery.of(query));
        } catch (RuntimeException e) {
            fallback(Fallback.ERROR, "cannot print the query: " + e);
            return Optional.empty();
        }
    }

    private static double bestScore(Map<String, Map<String, Double>> scores, String candidate) {
        double best = Double.NEGATIVE_INFINITY;
        for (Map<String, Double> byCandidate : scores.values()) {
            Double score = byCandidate.get(candidate);
            if (score != null && score > best) {
                best = score;
            }
        }
        return best;
    }

    /** Counts and (rarely) logs a fallback the caller decided on, e.g. an answer naming a non-candidate. */
    public void fallback(Fallback cause, String detail) {
        // A server that is down or hung would otherwise cost every caller the deadline: one pays, the rest skip it.
        if ((cause == Fallback.TIMEOUT || cause == Fallback.UNAVAILABLE)
                && !settings.backoff().isZero()) {
            quietUntil = System.nanoTime() + settings.backoff().toNanos();
        }
        metrics.fallback(cause);
        fallbackLog.fallback(cause, detail);
    }

    private static Fallback causeOf(CloudTalkException failure) {
        return switch (failure.kind()) {
            case QUERY_ERROR, REFUSED, RATE_LIMITED -> Fallback.REFUSED;
            case UNAVAILABLE -> switch (failure.code()) {
                case "TIMEOUT", "TIMED_OUT" -> Fallback.TIMEOUT;
                case "BAD_ANSWER" -> Fallback.BAD_ANSWER;
                default -> Fallback.UNAVAILABLE;
            };
        };
    }
}
