package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.eval.SearchCut;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;
import org.cloudtalk.server.testing.SchedulingProbe;
import org.junit.jupiter.api.Test;

class QueryServiceTest {
    private static final double MIB = 1 << 20;

    /** A status source that knows every host and remembers what it was asked. */
    static final class FixedStatus implements StatusSource {
        final Map<String, HostLoad> loads = new ConcurrentHashMap<>();
        final List<Set<String>> asked = new ArrayList<>();

        @Override
        public synchronized Gathered gather(Set<Address> hosts, Duration wait) {
            Set<String> addresses = hosts.stream().map(Address::text).collect(java.util.stream.Collectors.toSet());
            asked.add(addresses);
            Map<String, HostLoad> known = new HashMap<>();
            addresses.forEach(address -> {
                if (loads.containsKey(address)) {
                    known.put(address, loads.get(address));
                }
            });
            return new Gathered(new ClusterState(known), addresses.size(), known.size(), 0);
        }
    }

    final FixedStatus status = new FixedStatus();
    final AtomicLong clock = new AtomicLong();

    QueryService service(TenantLimits limits, Duration hold) {
        return new QueryService(
                status, status, Duration.ofMillis(100), limits, Sampling.DEFAULT, new Reservations(hold, clock::get));
    }

    static QueryService.Options options(EvaluatorName kind) {
        return new QueryService.Options("tenant-a", kind, false, Duration.ofSeconds(5), false);
    }

    /**
     * An answer whose hosts a racing query reserved is evaluated again only while time allows another evaluation as
     * long as the last one (with room to spare), and at most 16 times; otherwise it is reserved as it is.
     */
    @Test
    void anAnswerRacedForIsEvaluatedAgainOnlyWhileTimeAllows() {
        long ms = 1_000_000L;
        assertThat(QueryService.lastAttempt(1, 1_000 * ms, 10 * ms)).isFalse();
        assertThat(QueryService.lastAttempt(15, 1_000 * ms, 10 * ms)).isFalse();
        assertThat(QueryService.lastAttempt(16, 1_000 * ms, 10 * ms)).isTrue();
        // 300 ms evaluations with 500 ms left: another would likely end past the deadline, a 503 instead of an answer.
        assertThat(QueryService.lastAttempt(1, 500 * ms, 300 * ms)).isTrue();
        assertThat(QueryService.lastAttempt(1, 700 * ms, 300 * ms)).isFalse();
    }

    @Test
    void answersWithTheBindingAndTheEstimate() throws Exception {
        hosts(3, 100 * MIB);
        status.loads.put("10.0.0.1", new HostLoad(100 * MIB, 0, 100 * MIB, 90 * MIB, 100 * MIB, 0, 100 * MIB, 0));
        QueryService.Answer answer = service(TenantLimits.DEFAULT, Duration.ZERO)
                .answer("A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 100M", options(EvaluatorName.FLOW));
        assertThat(answer.binding().valueOf("A")).isEqualTo("10.0.0.2");
        assertThat(answer.completionSeconds().getAsDouble()).isEqualTo(1.0);
        assertThat(answer.statusAsked()).isEqualTo(3);
        assertThat(answer.statusAnswered()).isEqualTo(3);
        assertThat(answer.sampled()).isFalse();
    }

    @Test
    void concurrentAnswersOversubscribingHostsSpreadByTheShareANewFlowWouldGet() throws Exception {
        // Four 100 MiB/s hosts and one at 10 MiB/s; each answer reserves a 256 MiB read at the host's capacity.
        for (int i = 1; i <= 4; i++) {
            status.loads.put("10.0.0." + i, new HostLoad(100 * MIB, 0, 100 * MIB, 0, 100 * MIB, 0, 100 * MIB, 0));
        }
        status.loads.put("10.0.0.5", new HostLoad(10 * MIB, 0, 10 * MIB, 0, 10 * MIB, 0, 10 * MIB, 0));
        // Held for a second (the test's clock stands still, so none lapses): 256 MiB over 1 s is above every capacity.
        QueryService service = service(TenantLimits.DEFAULT, Duration.ofSeconds(1));
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                sent.add(clients.submit(() -> {
                    QueryService.Answer answer = service.answer(
                            "src = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5)\nf1 src -> 10.0.0.100 size 256M",
                            options(EvaluatorName.HEURISTIC));
                    answers.merge(answer.binding().valueOf("src"), 1, Integer::sum);
                    return null;
                }));
            }
            for (Future<?> answer : sent) {
                answer.get();
            }
        } finally {
            clients.shutdownNow();
        }
        // A new flow's share is 10 times larger on a fast host at equal numbers of flows: the slow host's turn comes
        // about once per ten on each fast one (before, the slow host's smaller deficit in bytes/s won 62 of 100).
        assertThat(answers.getOrDefault("10.0.0.5", 0)).as("%s", answers).isBetween(1, 8);
        for (int i = 1; i <= 4; i++) {
            assertThat(answers.get("10.0.0." + i)).as("%s", answers).isBetween(18, 27);
        }
    }

    @Test
    void aQueryGreedyChoiceAloneWouldMissIsAnsweredAndExplained() throws Exception {
        hosts(9, 100 * MIB);
        status.loads.put("10.0.0.2", new HostLoad(100 * MIB, 0, 100 * MIB, 90 * MIB, 100 * MIB, 0, 100 * MIB, 0));
        // Greedy, the heuristic gives A the idle 10.0.0.1 and leaves B nothing, then moves A to make room for B; the
        // exhaustive search finds A=10.0.0.2 too.
        QueryService.Answer answer = service(TenantLimits.DEFAULT, Duration.ZERO)
                .answer(
                        "A = (10.0.0.1 10.0.0.2)\nB = (10.0.0.1)\nf1 A -> 10.0.0.9 size 1G\nf2 B -> 10.0.0.9 size 1G",
                        new QueryService.Options(
                                "tenant-a", EvaluatorName.EXHAUSTIVE, false, Duration.ofSeconds(5), true));
        assertThat(answer.binding().values()).isEqualTo(Map.of("A", "10.0.0.2", "B", "10.0.0.1"));
        assertThat(answer.candidateScores().get("A")).containsOnlyKeys("10.0.0.1", "10.0.0.2");
    }

    @Test
    void theExplanationShowsTheRunThatAnswered() throws Exception {
        hosts(5, 100 * MIB);
        QueryService service = service(TenantLimits.DEFAULT, Duration.ZERO);
        String query = "A = B = C = D = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5)\n"
                + "f1 A -> B size 1G\nf2 B -> C size 1G\nf3 C -> D size 1G\n";
        // Equal hosts: every pick is a tie, broken by the candidates' random order.
        for (int i = 0; i < 30; i++) {
            QueryService.Answer answer = service.answer(
                    query,
                    new QueryService.Options("tenant-a", EvaluatorName.HEURISTIC, false, Duration.ofSeconds(5), true));
            answer.binding().values().forEach((variable, host) -> {
                Map<String, Double> scores = answer.candidateScores().get(variable);
                assertThat(scores).as("%s's scores", variable).containsKey(host);
                assertThat(scores.get(host)).isEqualTo(java.util.Collections.max(scores.values()));
            });
        }
    }

    @Test
    void justRecommendedHostsCountAsBusyUntilTheHoldExpires() throws Exception {
        hosts(3, 100 * MIB);
        // 10.0.0.3 is the idlest; the others send a little.
        status.loads.put("10.0.0.1", new HostLoad(100 * MIB, 0, 100 * MIB, MIB, 100 * MIB, 0, 100 * MIB, 0));
        status.loads.put("10.0.0.2", new HostLoad(100 * MIB, 0, 100 * MIB, MIB, 100 * MIB, 0, 100 * MIB, 0));
        QueryService service = service(TenantLimits.DEFAULT, Duration.ofMillis(300));
        String query = "src = (10.0.0.1 10.0.0.2 10.0.0.3)\nf1 src -> 10.0.0.9 size 1G";
        List<String> chosen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            chosen.add(service.answer(query, options(EvaluatorName.HEURISTIC))
                    .binding()
                    .valueOf("src"));
        }
        assertThat(chosen).doesNotHaveDuplicates().startsWith("10.0.0.3");
        clock.addAndGet(Duration.ofMillis(301).toNanos());
        assertThat(service.answer(query, options(EvaluatorName.HEURISTIC))
                        .binding()
                        .valueOf("src"))
                .isEqualTo(chosen.get(0));
    }

    @Test
    void concurrentQueriesAreSteeredToDifferentHosts() throws Exception {
        hosts(8, 100 * MIB);
        QueryService service = service(TenantLimits.DEFAULT, Duration.ofSeconds(60));
        StringBuilder candidates = new StringBuilder();
        for (int i = 1; i <= 8; i++) {
            candidates.append(" 10.0.0.").append(i);
        }
        String query = "X = (" + candidates.toString().trim() + ")\nf1 X -> 10.0.0.99 size 1G";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return service.answer(query, options(EvaluatorName.HEURISTIC))
                            .binding()
                            .valueOf("X");
                }));
            }
            go.countDown();
            List<String> chosen = new ArrayList<>();
            for (Future<String> answer : answers) {
                chosen.add(answer.get());
            }
            assertThat(chosen).doesNotHaveDuplicates();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rejectsWhatIsOverTheQueryLimitsWithTheReason() throws Exception {
        hosts(4, 100 * MIB);
        // 200 chars, 2 flows, 2 variables, 10 candidate values, 10 bindings (rates are Admission's business).
        TenantLimits tight = new TenantLimits(200, 2, 2, 10, 10, 1e-9, 3);
        QueryService service = service(tight, Duration.ZERO);
        String small = "f1 10.0.0.1 -> 10.0.0.2 size 1";
        assertThat(reason(service, "#".repeat(201), EvaluatorName.HEURISTIC)).isEqualTo(ApiError.TOO_LARGE);
        assertThat(reason(
                        service,
                        small + "\nf2 10.0.0.1 -> 10.0.0.3 size 1\nf3 10.0.0.1 -> 10.0.0.4 size 1",
                        EvaluatorName.HEURISTIC))
                .isEqualTo(ApiError.OVER_LIMITS);
        assertThat(reason(
                        service,
                        "A = B = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)\nf1 A -> B size 1",
                        EvaluatorName.EXHAUSTIVE))
                .isEqualTo(ApiError.OVER_LIMITS);
        assertThat(reason(service, small, EvaluatorName.HEURISTIC)).isNull();
    }

    @Test
    void limitsBoundTheCostOfAQueryNotEachDimensionAlone() throws Exception {
        hosts(4, 100 * MIB);
        // 16 bindings are within the 1,000 allowed and 10 flows within the 100; 16 x 10 is over 100 binding-flows.
        QueryService service = service(new TenantLimits(65_536, 100, 10, 1000, 1000, 1e9, 1000, 100, 3), Duration.ZERO);
        String tenFlows = "A = B = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)\n"
                + "f%d A -> B size %dM\n"
                        .repeat(10)
                        .formatted(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10);
        QueryRejectedException overBindingFlows = catchThrowableOfType(
                QueryRejectedException.class, () -> service.answer(tenFlows, options(EvaluatorName.EXHAUSTIVE)));
        assertThat(overBindingFlows.reason()).isEqualTo(ApiError.OVER_LIMITS);
        assertThat(overBindingFlows.getMessage())
                .isEqualTo("exhaustive search over 16 bindings x 10 flows = 160 is over limits.binding.flows = 100");
        // The flow estimator: ten flows ending one after another are ten events, over the limit of 3.
        QueryRejectedException overEvents = catchThrowableOfType(
                QueryRejectedException.class, () -> service.answer(tenFlows, options(EvaluatorName.FLOW)));
        assertThat(overEvents.reason()).isEqualTo(ApiError.OVER_LIMITS);
        assertThat(overEvents.getMessage()).contains("limits.estimator.events");
        // Refined, the default, answers it as the heuristic would, and says why it has no estimate.
        QueryService.Answer refined = service.answer(tenFlows, options(EvaluatorName.REFINED));
        assertThat(refined.completionSeconds()).isEmpty();
        assertThat(refined.notes())
                .containsExactly("refined: the heuristic's binding, not estimated: estimating this query's completion"
                        + " takes more than 3 flow events (limits.estimator.events)");
        assertThat(refined.cut()).hasValue(SearchCut.ESTIMATOR_EVENTS);
        assertThat(reason(
                        service,
                        "A = B = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)\nf1 A -> B size 1M",
                        EvaluatorName.EXHAUSTIVE))
                .isNull();
    }

    @Test
    void exhaustiveCountsBindingsWithoutThePermutationsOfInterchangeableReducers() throws Exception {
        hosts(20, 100 * MIB);
        // The paper's reducer query with 4 reducers over 20 hosts: 20^4 = 160,000 assignments (116,280 ordered
        // bindings) were over the default limit of 100,000; the C(20, 4) = 4,845 sets of reducers are not, nor are
        // 4,845 x 8 binding-flows.
        StringBuilder query = new StringBuilder("x1 = x2 = x3 = x4 = (");
        for (int i = 1; i <= 20; i++) {
            query.append(i == 1 ? "" : " ").append("10.0.0.").append(i);
        }
        query.append(")\n");
        for (int i = 1; i <= 4; i++) {
            query.append("f%d 0.0.0.0 -> x%d size 1G rate r(f%d)\n".formatted(2 * i - 1, i, 2 * i));
            query.append("f%d x%d -> disk size 1G rate r(f%d)\n".formatted(2 * i, i, 2 * i - 1));
        }
        QueryService.Answer answer = service(TenantLimits.DEFAULT, Duration.ZERO)
                .answer(query.toString(), options(EvaluatorName.EXHAUSTIVE));
        assertThat(Set.copyOf(answer.binding().values().values())).hasSize(4);
        assertThat(answer.completionSeconds()).isPresent();
    }

    @Test
    void aQueryWhoseDeadlinePassedWhileQueuedIsNotRun() throws Exception {
        hosts(2, 100 * MIB);
        long[] now = {0};
        Deadline deadline = Deadline.after(Duration.ofMillis(1000), () -> now[0]);
        now[0] = 1_000_000_000L; // a second later, when a worker takes it up
        QueryRejectedException timedOut =
                catchThrowableOfType(QueryRejectedException.class, () -> service(TenantLimits.DEFAULT, Duration.ZERO)
                        .answer("f1 10.0.0.1 -> 10.0.0.2 size 1M", options(EvaluatorName.FLOW), deadline));
        assertThat(timedOut.reason()).isEqualTo(ApiError.TIMED_OUT);
        assertThat(status.asked).as("no status gathered for it").isEmpty();
    }

    @Test
    void aHeavyRefinedQueryAnswersWithItsBestBindingByHalfItsDeadline() throws Exception {
        status.loads.putAll(Coupled.chainHosts(100));
        hosts(20, 100 * MIB);
        // Refined re-estimates a 100-flow rate chain for every binding it tries: minutes of work without a deadline.
        String query = "X = Y = ("
                + String.join(
                        " ", status.loads.keySet().stream().sorted().limit(20).toList()) + ")\n"
                + Coupled.rateChain(100) + "g1 X -> Y size 1G\n";
        long[] now = {0};
        // Every reading of the fake clock takes 1 ms: the search must stop at the check that sees 500 ms pass, and
        // the answer is the heuristic's binding (or a better one), not a timeout the heuristic would not have had.
        Deadline deadline = Deadline.after(Duration.ofMillis(1000), () -> now[0] += 1_000_000);
        QueryService service = service(TenantLimits.DEFAULT, Duration.ZERO);
        QueryService.Answer answer = service.answer(query, options(EvaluatorName.REFINED), deadline);
        assertThat(answer.binding().values()).containsOnlyKeys("X", "Y");
        assertThat(answer.notes())
                .singleElement()
                .asString()
                .startsWith("refined: ")
                .contains("half the time left");
        assertThat(answer.cut()).hasValue(SearchCut.SEARCH_TIME);
        assertThat(now[0]).isBetween(500_000_000L, 510_000_000L);
        // And on the real clock: answered within 50 ms of half a 300 ms deadline, plus any time the machine kept
        // this thread from running (other builds share it).
        try (SchedulingProbe probe = new SchedulingProbe()) {
            long start = System.nanoTime();
            QueryService.Answer real = service.answer(
                    query,
                    new QueryService.Options("tenant-a", EvaluatorName.REFINED, false, Duration.ofMillis(300), false));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(real.notes()).singleElement().asString().contains("half the time left");
            assertThat(elapsedMillis).isBetween(150L, 200L + probe.worstMillis());
        }
    }

    @Test
    void reportsUnanswerableQueriesAndQueryErrors() throws Exception {
        hosts(2, 100 * MIB);
        QueryService service = service(TenantLimits.DEFAULT, Duration.ZERO);
        assertThat(reason(service, "A = B = (10.0.0.1)\nf1 A -> B size 1", EvaluatorName.HEURISTIC))
                .isEqualTo(ApiError.UNANSWERABLE);
        assertThat(reason(
                        service,
                        "A = B = C = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5)\nf1 A -> B size 1\n"
                                + "f2 B -> C size 1",
                        EvaluatorName.EXHAUSTIVE))
                .isNull();
        QueryException error = catchThrowableOfType(
                QueryException.class, () -> service.answer("f1 A -> 10.0.0.1", options(EvaluatorName.HEURISTIC)));
        assertThat(error.first().code()).isEqualTo(ErrorCode.UNDECLARED_VARIABLE);
        assertThat(error.first().formatted()).startsWith("line 1:4:");
    }

    @Test
    void samplesWhenTheCandidatesSpanManyHosts() throws Exception {
        hosts(300, 100 * MIB);
        StringBuilder candidates = new StringBuilder();
        for (int i = 1; i <= 300; i++) {
            candidates.append(' ').append("10.0.").append(i / 250).append('.').append(i % 250 + 1);
        }
        QueryService.Answer answer = service(TenantLimits.DEFAULT, Duration.ZERO)
                .answer(
                        "R1 = R2 = R3 = (" + candidates.toString().trim() + ")\nf1 10.9.9.9 -> R1 size 1M\n"
                                + "f2 R1 -> R2 size 1M\nf3 R2 -> R3 size 1M",
                        options(EvaluatorName.HEURISTIC));
        assertThat(answer.sampled()).isTrue();
        assertThat(answer.statusAsked()).isEqualTo(Sampling.DEFAULT.sampleSize() + 1);
        assertThat(Set.copyOf(answer.binding().values().values())).hasSize(3);
    }

    private ApiError reason(QueryService service, String query, EvaluatorName kind) throws InterruptedException {
        try {
            service.answer(query, options(kind));
            return null;
        } catch (QueryRejectedException e) {
            return e.reason();
        }
    }

    private void hosts(int count, double capacity) {
        for (int i = 1; i <= count; i++) {
            status.loads.put(
                    "10.0." + (i / 250) + "." + (i % 250 + 1),
                    new HostLoad(capacity, 0, capacity, 0, capacity, 0, capacity, 0));
            status.loads.put("10.0.0." + i, new HostLoad(capacity, 0, capacity, 0, capacity, 0, capacity, 0));
        }
    }
}
