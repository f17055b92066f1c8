package org.cloudtalk.server.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;
import org.cloudtalk.lang.parser.ParserLimits;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.print.QueryPrinter;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.deadline.DeadlineExceededException;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.CostLimitException;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.SearchCut;
import org.cloudtalk.server.eval.exhaustive.ExhaustiveEvaluator;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.eval.packet.PacketEvaluator;
import org.cloudtalk.server.eval.packet.PacketSettings;
import org.cloudtalk.server.eval.packet.SimulatorUnavailableException;
import org.cloudtalk.server.eval.refined.RefinedEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one query (admitted already, see {@link Admission}): parse and validate, check the tenant's limits, sample the candidates if there are many, gather
 * the hosts' status, count pseudo-reserved hosts as in use, evaluate, and reserve what was recommended. If another
 * query reserved one of the chosen hosts meanwhile, evaluation runs again with that reservation counted (§5.5).
 *
 * <p>Concurrency: thread-safe; every piece of shared state (reservations, rate limiter, status sources) is.
 */
public final class QueryService {
    private static final Logger log = LoggerFactory.getLogger(QueryService.class);

    /** How to answer: which evaluator, dynamic or static information, and the deadline. */
    public record Options(
            String tenant, EvaluatorName evaluator, boolean staticInfo, Duration timeout, boolean explain) {
        public Options {
            requireNonNull(tenant, "tenant is null");
            requireNonNull(evaluator, "evaluator is null");
            requireNonNull(timeout, "timeout is null");
        }
    }

    /**
     * The answer and what it rests on; {@code reservationFallback} when racing queries kept reserving the chosen hosts
     * and the answer's reservation was added without a clean re-check after the last attempt; {@code cut} when the
     * evaluator's search stopped short (the notes say so in words).
     */
    public record Answer(
            Binding binding,
            EvaluatorName evaluator,
            OptionalDouble completionSeconds,
            int statusAsked,
            int statusAnswered,
            int statusReused,
            boolean sampled,
            long elapsedNanos,
            Map<String, Map<String, Double>> candidateScores,
            boolean reservationFallback,
            List<String> notes,
            Optional<SearchCut> cut) {
        public Answer {
            candidateScores = Map.copyOf(candidateScores);
            notes = List.copyOf(notes);
            requireNonNull(cut, "cut is null");
        }
    }

    /** Evaluators that run the flow estimator, for up to a query's deadline: they evaluate on processor permits. */
    private static final Set<EvaluatorName> PROCESSOR_BOUND = EnumSet.of(EvaluatorName.FLOW, EvaluatorName.EXHAUSTIVE);

    /** Each retry sees the reservations that beat it, so N racing queries settle within N attempts. */
    private static final int RESERVATION_ATTEMPTS = 16;

    private final StatusSource dynamicStatus;
    private final StatusSource staticStatus;
    private final Duration gatherWait;
    private final TenantLimits limits;
    private final Sampling sampling;
    private final Reservations reservations;
    private final Supplier<Random> randomness;
    private final ParsedQueries parsedQueries;
    private final Map<EvaluatorName, Evaluator> evaluators = new HashMap<>();
    private final HeuristicEvaluator heuristic = new HeuristicEvaluator();
    private final ProcessorPermits processors;

    public QueryService(
            StatusSource dynamicStatus,
            StatusSource staticStatus,
            Duration gatherWait,
            TenantLimits limits,
            Sampling sampling,
            Reservations reservations) {
        this(dynamicStatus, staticStatus, gatherWait, limits, sampling, reservations, PacketSettings.defaults());
    }

    public QueryService(
            StatusSource dynamicStatus,
            StatusSource staticStatus,
            Duration gatherWait,
            TenantLimits limits,
            Sampling sampling,
            Reservations reservations,
            PacketSettings packet) {
        this(
                dynamicStatus,
                staticStatus,
                gatherWait,
                limits,
                sampling,
                reservations,
                packet,
                ThreadLocalRandom::current);
    }

    /** @param randomness where sampling and tie-breaking draw from (a seeded source makes answers repeatable) */
    QueryService(
            StatusSource dynamicStatus,
            StatusSource staticStatus,
            Duration gatherWait,
            TenantLimits limits,
            Sampling sampling,
            Reservations reservations,
            Supplier<Random> randomness) {
        this(
                dynamicStatus,
                staticStatus,
                gatherWait,
                limits,
                sampling,
                reservations,
                PacketSettings.defaults(),
                randomness);
    }

    private QueryService(
            StatusSource dynamicStatus,
            StatusSource staticStatus,
            Duration gatherWait,
            TenantLimits limits,
            Sampling sampling,
            Reservations reservations,
            PacketSettings packet,
            Supplier<Random> randomness) {
        this.dynamicStatus = requireNonNull(dynamicStatus, "dynamicStatus is null");
        this.staticStatus = requireNonNull(staticStatus, "staticStatus is null");
        this.gatherWait = requireNonNull(gatherWait, "gatherWait is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.sampling = requireNonNull(sampling, "sampling is null");
        this.reservations = requireNonNull(reservations, "reservations is null");
        this.randomness = requireNonNull(randomness, "randomness is null");
        this.parsedQueries = new ParsedQueries(new QueryParser(new ParserLimits(
                limits.maxQueryChars(),
                ParserLimits.DEFAULT.maxNestingDepth(),
                ParserLimits.DEFAULT.maxExpressionOperators())));
        // The server's topology (the packet settings carry it) makes every estimate share rack and pod uplinks too.
        FlowEstimator estimator = new FlowEstimator(limits.maxEstimatorEvents(), packet.topology());
        int spareProcessors = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
        // The heuristic costs microseconds (variables x candidates) and runs at once; the evaluators that run the flow
        // estimator can take up to their deadline, so they share the processors' permits (PROCESSOR_BOUND). Refined,
        // the default, searches on permits of its own for at most half its time left, so that it never queues behind
        // them.
        this.processors = new ProcessorPermits(spareProcessors);
        evaluators.put(EvaluatorName.HEURISTIC, heuristic);
        evaluators.put(EvaluatorName.FLOW, new FlowEvaluator(heuristic, estimator));
        evaluators.put(EvaluatorName.EXHAUSTIVE, new ExhaustiveEvaluator(limits.maxExhaustiveBindings(), estimator));
        evaluators.put(
                EvaluatorName.REFINED,
                new RefinedEvaluator(
                        heuristic,
                        RefinedEvaluator.DEFAULT_BUDGET,
                        limits.maxBindingFlows(),
                        estimator,
                        new Semaphore(spareProcessors, true)));
        evaluators.put(EvaluatorName.PACKET, new PacketEvaluator(packet));
    }

    /**
     * @throws org.cloudtalk.lang.QueryException for a query that is not valid (where it is wrong)
     * @throws QueryRejectedException for one the server will not or cannot answer (why)
     */
    public Answer answer(String text, Options options) throws InterruptedException {
        return answer(text, options, Deadline.after(options.timeout()));
    }

    /**
     * Answers by {@code deadline}, which started when the request was admitted (time queued for a worker counts).
     *
     * @throws QueryRejectedException (TIMED_OUT) once the deadline has passed, checked between every step
     */
    public Answer answer(String text, Options options, Deadline deadline) throws InterruptedException {
        try {
            return answerBy(text, options, deadline);
        } catch (DeadlineExceededException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("the server is stopping");
            }
            throw new QueryRejectedException(
                    ApiError.TIMED_OUT, "no answer within " + options.timeout().toMillis() + " ms");
        }
    }

    private Answer answerBy(String text, Options options, Deadline deadline) throws InterruptedException {
        long start = System.nanoTime();
        deadline.check();
        if (text.length() > limits.maxQueryChars()) {
            throw new QueryRejectedException(
                    ApiError.TOO_LARGE,
                    "query is " + text.length() + " characters; the limit is " + limits.maxQueryChars());
        }
        Query parsed = parsedQueries.parse(text);
        checkLimits(parsed, options);
        Random random = randomness.get();
        Query query = options.staticInfo() ? parsed : sampling.apply(parsed, random);
        // Candidates in random order: evaluators break ties by position, and equal hosts must share the answers.
        QueryModel shuffled = new QueryModel(TieBreaking.shuffle(query, random));

        StatusSource source = options.staticInfo() ? staticStatus : dynamicStatus;
        deadline.check();
        Duration left = deadline.remaining();
        Set<Address> hosts = hosts(query);
        // At most half the time left: a daemon that does not answer must leave the query time to be answered (its host
        // counting as heavily loaded), not time it out at its deadline.
        Duration half = left.dividedBy(2);
        StatusSource.Gathered gathered = source.gather(hosts, half.compareTo(gatherWait) < 0 ? half : gatherWait);
        deadline.check();
        Set<String> literal = literal(query);
        // Evaluation keys hosts by their canonical text (what Address.text() gives), as bindings and reservations do.
        List<String> hostKeys = hosts.stream().map(Address::text).toList();

        Evaluator evaluator = evaluators.get(options.evaluator());
        for (int attempt = 1; ; attempt++) {
            Reservations.Snapshot held = reservations.snapshot(hostKeys);
            ClusterState state = held.applyTo(gathered.state(), literal, HeuristicEvaluator.DEFAULT_WEIGHT);
            Evaluation evaluation;
            Map<String, Map<String, Double>> scores;
            long evaluationStart = System.nanoTime();
            try {
                evaluation = evaluate(evaluator, options, shuffled, state, deadline);
                scores = options.explain() ? explanation(query, shuffled, state, deadline) : Map.of();
            } catch (CostLimitException e) {
                throw new QueryRejectedException(ApiError.OVER_LIMITS, e.getMessage());
            } catch (EvaluationException e) {
                throw new QueryRejectedException(ApiError.UNANSWERABLE, e.getMessage());
            } catch (SimulatorUnavailableException e) {
                throw new QueryRejectedException(ApiError.UNAVAILABLE, e.getMessage());
            }
            deadline.check();
            Map<String, ReservedLoad> load =
                    ReservedLoad.forAnswer(shuffled, evaluation.binding(), gathered.state(), reservations.sizeSpread());
            boolean reserved = reservations.reserve(load, held, false);
            boolean forced = !reserved
                    && lastAttempt(attempt, deadline.remaining().toNanos(), System.nanoTime() - evaluationStart)
                    && reservations.reserve(load, held, true);
            if (reserved || forced) {
                if (log.isDebugEnabled()) {
                    log.debug(
                            "answered {} ({}, attempt {}{}): {}; status {} of {} answered, {} reused; load seen {}",
                            options.tenant(),
                            options.evaluator().wireName(),
                            attempt,
                            forced ? ", reserved without a clean re-check" : "",
                            evaluation.binding().values(),
                            gathered.answered(),
                            gathered.asked(),
                            gathered.reused(),
                            loadSeen(hostKeys, state, held));
                }
                return new Answer(
                        evaluation.binding(),
                        options.evaluator(),
                        evaluation.completionSeconds(),
                        gathered.asked(),
                        gathered.answered(),
                        gathered.reused(),
                        query != parsed,
                        System.nanoTime() - start,
                        scores,
                        forced,
                        evaluation.notes(),
                        evaluation.cut());
            }
        }
    }

    /**
     * Whether an answer whose hosts racing queries reserved meanwhile is reserved as it is rather than evaluated again:
     * after {@link #RESERVATION_ATTEMPTS}, or when another evaluation as long as this one would likely not end before
     * the deadline (an expensive query re-evaluated under contention timed out instead of answering).
     */
    static boolean lastAttempt(int attempt, long remainingNanos, long evaluationNanos) {
        return attempt >= RESERVATION_ATTEMPTS || remainingNanos < 2 * evaluationNanos;
    }

    /** Evaluates, holding a processor permit (waiting counts against the deadline) where the evaluator needs one. */
    private Evaluation evaluate(
            Evaluator evaluator, Options options, QueryModel query, ClusterState state, Deadline deadline)
            throws InterruptedException {
        if (!PROCESSOR_BOUND.contains(options.evaluator())) {
            return evaluator.evaluate(query, state, deadline);
        }
        if (!processors.acquire(options.tenant(), deadline.remaining())) {
            throw new DeadlineExceededException();
        }
        try {
            return evaluator.evaluate(query, state, deadline);
        } finally {
            processors.release();
        }
    }

    private void checkLimits(Query query, Options options) {
        int variables = 0;
        long candidates = 0;
        for (VariableDeclaration declaration : query.declarations()) {
            variables += declaration.names().size();
            candidates +=
                    (long) declaration.names().size() * declaration.candidates().size();
        }
        over(query.flows().size(), limits.maxFlows(), "flows");
        over(variables, limits.maxVariables(), "variables");
        over(candidates, limits.maxCandidates(), "candidate values (over all variables)");
        if (options.evaluator() == EvaluatorName.EXHAUSTIVE) {
            // Bindings without the symmetric duplicates of interchangeable variables: those are not scored.
            double space = ExhaustiveEvaluator.searchSpace(new QueryModel(query));
            if (space > limits.maxExhaustiveBindings()) {
                throw new QueryRejectedException(
                        ApiError.OVER_LIMITS,
                        String.format(
                                "exhaustive search over %.0f bindings is over the limit of %d",
                                space, limits.maxExhaustiveBindings()));
            }
            // Each binding is one run of the estimator over every flow: the search costs their product.
            double cost = space * Math.max(1, query.flows().size());
            if (cost > limits.maxBindingFlows()) {
                throw new QueryRejectedException(
                        ApiError.OVER_LIMITS,
                        String.format(
                                "exhaustive search over %.0f bindings x %d flows = %.0f is over limits.binding.flows"
                                        + " = %d",
                                space, query.flows().size(), cost, limits.maxBindingFlows()));
            }
        }
    }

    private static void over(long value, long limit, String what) {
        if (value > limit) {
            throw new QueryRejectedException(
                    ApiError.OVER_LIMITS, "query has " + value + " " + what + "; the limit is " + limit);
        }
    }

    /**
     * The heuristic's scores over the same candidate order as the evaluation (so that, for the heuristic, they show
     * the run that answered), in the query's own candidate order; none where the heuristic finds no binding that
     * another evaluator did (an explanation never costs the answer).
     */
    private Map<String, Map<String, Double>> explanation(
            Query query, QueryModel shuffled, ClusterState state, Deadline deadline) {
        try {
            return inDeclaredOrder(query, heuristic.explain(shuffled, state, deadline));
        } catch (EvaluationException e) {
            return Map.of();
        }
    }

    /** Each variable's scores with its candidates in the order the query lists them. */
    private static Map<String, Map<String, Double>> inDeclaredOrder(
            Query query, Map<String, Map<String, Double>> scores) {
        Map<String, Map<String, Double>> ordered = new LinkedHashMap<>();
        for (VariableDeclaration declaration : query.declarations()) {
            for (Identifier name : declaration.names()) {
                Map<String, Double> byCandidate = scores.get(name.value());
                if (byCandidate != null) {
                    Map<String, Double> sorted = new LinkedHashMap<>();
                    for (Endpoint candidate : declaration.candidates()) {
                        String key = QueryModel.key(candidate);
                        if (byCandidate.containsKey(key)) {
                            sorted.put(key, byCandidate.get(key));
                        }
                    }
                    ordered.put(name.value(), sorted);
                }
            }
        }
        return ordered;
    }

    /**
     * What the answer rested on, per host, for the debug log: use over capacity in Mbit/s (receive, transmit) and MB/s
     * (disk read, write), as the heuristic saw it (reservations counted), and the reserved share of it.
     */
    private static String loadSeen(List<String> hosts, ClusterState state, Reservations.Snapshot held) {
        StringBuilder seen = new StringBuilder();
        for (String host : hosts) {
            HostLoad load = state.load(host);
            ReservedLoad reserved = held.loads().getOrDefault(host, ReservedLoad.NONE);
            seen.append(seen.isEmpty() ? "" : "; ")
                    .append(host)
                    .append(String.format(
                            Locale.ROOT,
                            " rx %.0f/%.0f tx %.0f/%.0f Mbit/s disk r %.0f/%.0f w %.0f/%.0f MB/s",
                            load.rxUse() * 8e-6,
                            load.rxCapacity() * 8e-6,
                            load.txUse() * 8e-6,
                            load.txCapacity() * 8e-6,
                            load.diskReadUse() * 1e-6,
                            load.diskReadCapacity() * 1e-6,
                            load.diskWriteUse() * 1e-6,
                            load.diskWriteCapacity() * 1e-6));
            if (!reserved.equals(ReservedLoad.NONE)) {
                seen.append(String.format(
                        Locale.ROOT, " (reserved rx %.0f tx %.0f Mbit/s)", reserved.rx() * 8e-6, reserved.tx() * 8e-6));
            }
        }
        return seen.toString();
    }

    /** Every host the query names: literal endpoints and candidates. */
    static Set<Address> hosts(Query query) {
        Set<Address> hosts = new HashSet<>();
        for (VariableDeclaration declaration : query.declarations()) {
            for (Endpoint candidate : declaration.candidates()) {
                if (candidate instanceof Endpoint.Host host) {
                    hosts.add(host.address());
                }
            }
        }
        for (Flow flow : query.flows()) {
            for (Endpoint endpoint : new Endpoint[] {flow.source(), flow.destination()}) {
                if (endpoint instanceof Endpoint.Host host) {
                    hosts.add(host.address());
                }
            }
        }
        return hosts;
    }

    /** Hosts the query names literally: the tenant's own choice, not steered by reservations. */
    private static Set<String> literal(Query query) {
        Set<String> literal = new HashSet<>();
        for (Flow flow : query.flows()) {
            literal.add(QueryPrinter.print(flow.source()));
            literal.add(QueryPrinter.print(flow.destination()));
        }
        return literal;
    }
}
