package org.cloudtalk.server.eval.refined;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.deadline.DeadlineExceededException;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.CostLimitException;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.SearchCut;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.state.ClusterState;

/**
 * The heuristic's binding improved by local search with the flow estimator: move one variable to another candidate
 * (swapping with the variable that holds it, to keep values distinct), or two variables at once, whenever that
 * finishes the task sooner, until no move helps, no binding could beat it ({@link CompletionBound#ofAnyBinding}), the
 * budget of estimator runs is spent or the deadline passes. The
 * budget is the smaller of {@code budget} and {@code maxBindingFlows / flows}: a query's cost is the bindings it
 * scores times the flows each estimate simulates. A move is estimated only if its {@link CompletionBound} (the busiest
 * resource's known bytes over its available rate) leaves room to beat the current binding; pairs of moves combine
 * only each variable's few candidates whose own resources suit its flows best, and candidates whose own resources
 * alone take as long as the current binding are not tried at all. The estimator prepares the query once per search.
 *
 * <p>Admission: the heuristic's binding is found at once, as the heuristic evaluator's is. The search then runs only
 * while it holds one of {@code searchers}, permits of its own (not those of the flow and exhaustive evaluators, whose
 * estimates may hold theirs up to a query's deadline), and only until half the time left to the deadline, leaving
 * the other half to reserve and send the answer. A search that gets no permit in that time or runs out of it answers
 * with the best binding found so far, at worst the heuristic's, and a note: never a timeout the heuristic would not
 * have had. So does a query whose heuristic binding the estimator cannot simulate within its event limit; a move it
 * cannot simulate is not adopted. Such answers carry their {@link SearchCut} for the server's metrics.
 *
 * <p>Concurrency: thread-safe; each evaluation has a search of its own, and the permits are a semaphore.
 */
public final class RefinedEvaluator implements Evaluator {
    public static final int DEFAULT_BUDGET = 2_000;
    /** Lower bounds are cheap: up to this many per estimator run of the budget before the search stops. */
    private static final int BOUNDS_PER_RUN = 50;
    /** Candidates per variable the pair neighbourhood combines. */
    private static final int PAIR_CANDIDATES = 8;

    private final HeuristicEvaluator heuristic;
    private final int budget;
    private final long maxBindingFlows;
    private final FlowEstimator estimator;
    private final Semaphore searchers;

    /** No limits but the default budget: for benchmarks and tests, where searches need not share processors. */
    public RefinedEvaluator() {
        this(new HeuristicEvaluator(), DEFAULT_BUDGET);
    }

    public RefinedEvaluator(HeuristicEvaluator heuristic, int budget) {
        this(heuristic, budget, Long.MAX_VALUE, new FlowEstimator(), new Semaphore(Integer.MAX_VALUE));
    }

    /** @param searchers permits of which a search holds one while it runs (see the class comment) */
    public RefinedEvaluator(
            HeuristicEvaluator heuristic,
            int budget,
            long maxBindingFlows,
            FlowEstimator estimator,
            Semaphore searchers) {
        if (budget < 1 || maxBindingFlows < 1) {
            throw new IllegalArgumentException(
                    "budget and maxBindingFlows must be positive: " + budget + ", " + maxBindingFlows);
        }
        this.heuristic = requireNonNull(heuristic, "heuristic is null");
        this.budget = budget;
        this.maxBindingFlows = maxBindingFlows;
        this.estimator = requireNonNull(estimator, "estimator is null");
        this.searchers = requireNonNull(searchers, "searchers is null");
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        long flows = Math.max(1, query.query().flows().size());
        int runs = (int) Math.max(1, Math.min(budget, maxBindingFlows / flows));
        Evaluation start = heuristic.evaluate(query, state, deadline);
        if (query.query().flows().stream().noneMatch(flow -> flow.has(Attribute.SIZE) || flow.has(Attribute.END))) {
            // Endless flows never complete, so no binding finishes sooner than another: the heuristic's stands.
            return new Evaluation(start.binding(), OptionalDouble.empty());
        }
        Deadline searchBy = deadline.halfway();
        if (!acquire(searchBy)) {
            return unestimated(start, SearchCut.NO_PERMIT, "no search permit came free within half the time left");
        }
        try {
            return search(query, state, start, runs, searchBy);
        } finally {
            searchers.release();
        }
    }

    private boolean acquire(Deadline by) {
        try {
            return searchers.tryAcquire(by.remaining().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping: give up as if out of time
            throw new DeadlineExceededException();
        }
    }

    private Evaluation search(QueryModel query, ClusterState state, Evaluation start, int runs, Deadline searchBy) {
        Search search;
        try {
            search = new Search(query, state, start.binding().values(), runs, searchBy);
        } catch (DeadlineExceededException e) {
            return unestimated(start, SearchCut.SEARCH_TIME, "half the time left ran out first");
        } catch (CostLimitException e) {
            return unestimated(start, SearchCut.ESTIMATOR_EVENTS, e.getMessage());
        }
        try {
            // Single moves are cheap; pairs of moves escape the local optima where one variable's better value is
            // held by another whose alternatives are all worse on their own.
            while (!search.unbeatable() && (search.improveOneVariable() || search.improveTwoVariables())) {
                // keep going until no binding can beat this one, neither neighbourhood helps or the budget is spent
            }
            return search.result(List.of(), Optional.empty());
        } catch (DeadlineExceededException e) {
            return search.result(
                    List.of("refined: the search stopped at half the time left, after " + search.runs
                            + " estimates; the best binding found by then"),
                    Optional.of(SearchCut.SEARCH_TIME));
        }
    }

    /** The heuristic's binding as the answer, with no completion time, and why the search did not improve it. */
    private static Evaluation unestimated(Evaluation start, SearchCut cut, String why) {
        return new Evaluation(
                start.binding(),
                OptionalDouble.empty(),
                List.of("refined: the heuristic's binding, not estimated: " + why),
                Optional.of(cut));
    }

    private final class Search {
        private final BindingSpace space;
        private final CompletionBound bound;
        private final FlowEstimator.Prepared estimates;
        /** No binding finishes sooner than this ({@link CompletionBound#ofAnyBinding}). */
        private final double floor;

        private final int budget;
        private final Deadline deadline;
        private int[] current;
        private double cost;
        private int runs;
        private int bounded;

        Search(QueryModel query, ClusterState state, Map<String, String> start, int budget, Deadline deadline) {
            this.space = new BindingSpace(query);
            this.estimates = estimator.prepare(query, state);
            this.bound = new CompletionBound(query, space, state, estimates);
            this.budget = budget;
            this.deadline = deadline;
            this.floor = bound.ofAnyBinding();
            this.current = space.of(start);
            this.cost = estimate(current);
            this.runs = 1;
        }

        Evaluation result(List<String> notes, Optional<SearchCut> cut) {
            return new Evaluation(new Binding(space.toMap(current)), OptionalDouble.of(cost), notes, cut);
        }

        /** Whether the binding already finishes as soon as any could: no move can then be adopted. */
        boolean unbeatable() {
            return cannotBeat(floor);
        }

        boolean improveOneVariable() {
            for (int v = 0; v < space.variableCount(); v++) {
                int[] candidates = space.candidates(v);
                for (int i = 0; i < candidates.length; i++) {
                    // The variable's own flows on the candidate's resources bound every binding that moves it there.
                    if (!(bound.boundsBindings(v) && cannotBeat(bound.atCandidate(v, i)))
                            && tryBinding(space.move(current, v, candidates[i]))) {
                        return true;
                    }
                }
            }
            return false;
        }

        boolean improveTwoVariables() {
            int[][] promising = new int[space.variableCount()][];
            for (int v = 0; v < promising.length; v++) {
                promising[v] = promising(v);
            }
            for (int first = 0; first < space.variableCount(); first++) {
                for (int second = first + 1; second < space.variableCount(); second++) {
                    for (int a : promising[first]) {
                        int[] movedFirst = space.move(current, first, a);
                        if (movedFirst == null) {
                            continue;
                        }
                        for (int b : promising[second]) {
                            if (tryBinding(space.move(movedFirst, second, b))) {
                                return true;
                            }
                        }
                    }
                }
            }
            return false;
        }

        /**
         * The variable's {@value #PAIR_CANDIDATES} candidates whose own resources would carry its flows soonest
         * ({@link CompletionBound#atValue}): pairs are tried among these only, so the pair neighbourhood costs the
         * same whether a variable has 10 or 1,000 candidates. Candidates whose own resources alone take as long as
         * the current binding are left out: every binding giving the variable that value has a completion bound at
         * least as high, so {@link #tryBinding} would reject each of its pairs after bounding it.
         */
        private int[] promising(int variable) {
            int[] candidates = space.candidates(variable);
            Integer[] order = new Integer[candidates.length];
            for (int i = 0; i < candidates.length; i++) {
                order[i] = i;
            }
            if (candidates.length > PAIR_CANDIDATES) {
                Arrays.sort(
                        order,
                        (x, y) -> Double.compare(bound.atCandidate(variable, x), bound.atCandidate(variable, y)));
            }
            return Arrays.stream(order)
                    .limit(PAIR_CANDIDATES)
                    .filter(i -> !(bound.boundsBindings(variable) && cannotBeat(bound.atCandidate(variable, i))))
                    .mapToInt(i -> candidates[i])
                    .toArray();
        }

        /**
         * Whether a lower bound leaves no room to beat the current binding; relaxed by the acceptance margin so that
         * rounding in the estimator can never make a pruned binding the better one.
         */
        private boolean cannotBeat(double lowerBound) {
            return lowerBound * (1 - 1e-9) >= cost * (1 - 1e-9);
        }

        /**
         * Adopts {@code candidate} (null: an illegal move) if it is new and finishes sooner; false when it does not
         * or the budget is spent.
         */
        private boolean tryBinding(int[] candidate) {
            if (candidate == null
                    || runs >= budget
                    || bounded >= budget * BOUNDS_PER_RUN
                    || Arrays.equals(candidate, current)
                    || !space.distinct(candidate)
                    || !space.admissible(candidate)) {
                return false;
            }
            bounded++;
            if ((bounded & 63) == 0) {
                deadline.check();
            }
            if (cannotBeat(bound.of(candidate))) {
                return false; // it cannot finish sooner than the current binding: no need to estimate it
            }
            double candidateCost;
            try {
                candidateCost = estimate(candidate);
            } catch (CostLimitException e) {
                candidateCost = Double.POSITIVE_INFINITY; // more events than allowed: not one to adopt
            }
            runs++;
            if (candidateCost < cost * (1 - 1e-9)) {
                current = candidate;
                cost = candidateCost;
                return true;
            }
            return false;
        }

        private double estimate(int[] binding) {
            return FlowEvaluator.cost(estimates.estimate(variable -> space.value(binding[variable]), deadline));
        }
    }
}
