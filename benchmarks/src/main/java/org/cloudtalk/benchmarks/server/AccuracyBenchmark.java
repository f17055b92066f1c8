package org.cloudtalk.benchmarks.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.cloudtalk.benchmarks.BenchArgs;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.exhaustive.ExhaustiveEvaluator;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.eval.refined.RefinedEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * Figure 3 of the paper: how close random choice, the heuristic and the refined evaluator come to the optimum on the
 * §5.1 chain {@code x1 -> x2 -> x3} over 20 hosts of equal capacity with inelastic background traffic of 0-90% in each
 * direction (uniform or bimodal). Every binding is scored by the flow estimator (throughput = size / completion).
 *
 * <p>The optimum: the two flows share no resource when the hosts are distinct, so the chain's throughput is
 * {@code min(tx(x1), rx(x2), tx(x2), rx(x3))} and the best triple is found by enumerating all of them on that
 * formula. The harness checks the formula against the exhaustive evaluator (every binding through the estimator) on
 * the first {@value #VERIFIED} states of each distribution and stops if they ever disagree.
 */
public final class AccuracyBenchmark {
    private static final int HOSTS = 20;
    private static final int VERIFIED = 300;
    private static final double CAPACITY = 125e6;
    private static final double SIZE = 100 * 1024 * 1024;

    private AccuracyBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("topology")) {
            TopologyCostBenchmark.run(
                    BenchArgs.count(args, 1, "STATES", 200), BenchArgs.seed(args, 2, "SEED", 20261125L));
            return;
        }
        if (args.length > 0 && args[0].equals("shapes")) {
            ShapesBenchmark.run(BenchArgs.count(args, 1, "STATES", 200), BenchArgs.seed(args, 2, "SEED", 20261125L));
            return;
        }
        int states = BenchArgs.count(args, 0, "STATES", 100_000);
        long seed = BenchArgs.seed(args, 1, "SEED", 20261120L);
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= HOSTS; i++) {
            hosts.add("10.0.0." + i);
        }
        QueryModel query = new QueryModel(new QueryParser()
                .parse("x1 = x2 = x3 = (" + String.join(" ", hosts) + ")\n"
                        + "f1 x1 -> x2 size 100M\nf2 x2 -> x3 size sz(f1) transfer t(f1)"));
        System.out.printf(Locale.ROOT, "%,d states per distribution, %d hosts, seed %d%n", states, HOSTS, seed);
        for (boolean bimodal : new boolean[] {false, true}) {
            run(query, hosts, states, new Random(seed + (bimodal ? 1 : 0)), bimodal);
        }
    }

    private static void run(QueryModel query, List<String> hosts, int states, Random random, boolean bimodal)
            throws Exception {
        List<ClusterState> generated = new ArrayList<>(states);
        for (int i = 0; i < states; i++) {
            generated.add(new ClusterState(state(random, hosts, bimodal, false)));
        }
        long[] seeds = random.longs(states).toArray();
        double[][] ratios = new double[3][states];
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> work = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int first = t;
            work.add(pool.submit(() -> {
                FlowEstimator estimator = new FlowEstimator();
                HeuristicEvaluator heuristic = new HeuristicEvaluator();
                RefinedEvaluator refined = new RefinedEvaluator();
                for (int i = first; i < states; i += threads) {
                    ClusterState state = generated.get(i);
                    double best = SIZE / optimalThroughput(state, hosts);
                    ratios[0][i] = best / cost(estimator, query, randomBinding(new Random(seeds[i]), hosts), state);
                    ratios[1][i] = best
                            / cost(
                                    estimator,
                                    query,
                                    heuristic.evaluate(query, state).binding(),
                                    state);
                    ratios[2][i] = best
                            / refined.evaluate(query, state).completionSeconds().orElseThrow();
                }
                return null;
            }));
        }
        for (Future<?> future : work) {
            future.get();
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - start) / 1e9;
        double[] timing = verify(query, hosts, generated.subList(0, Math.min(VERIFIED, states)));
        System.out.printf(
                Locale.ROOT,
                "%n%s loads (%.0f s on %d threads; optimum formula = exhaustive on %d states)%n",
                bimodal ? "bimodal" : "uniform",
                seconds,
                threads,
                Math.min(VERIFIED, states));
        String[] names = {"random", "heuristic", "refined"};
        for (int e = 0; e < 3; e++) {
            double[] sorted = ratios[e].clone();
            Arrays.sort(sorted);
            long optimal = Arrays.stream(sorted).filter(r -> r >= 1 - 1e-9).count();
            System.out.printf(
                    Locale.ROOT,
                    "  %-9s optimal in %6.2f%% of states, worst %.3f x optimal, 1st percentile %.3f%n",
                    names[e],
                    100.0 * optimal / states,
                    sorted[0],
                    sorted[(int) (states * 0.01)]);
        }
        System.out.printf(
                Locale.ROOT,
                "  time per state: exhaustive %.0f us, heuristic %.1f us, refined %.0f us; "
                        + "exhaustive / heuristic = %.0f%n",
                timing[0],
                timing[1],
                timing[2],
                timing[0] / timing[1]);
    }

    /** Checks the optimum formula against exhaustive search; returns µs per state of exhaustive, heuristic, refined. */
    private static double[] verify(QueryModel query, List<String> hosts, List<ClusterState> states) {
        ExhaustiveEvaluator exhaustive = new ExhaustiveEvaluator();
        HeuristicEvaluator heuristic = new HeuristicEvaluator();
        RefinedEvaluator refined = new RefinedEvaluator();
        long exhaustiveNanos = 0;
        long heuristicNanos = 0;
        long refinedNanos = 0;
        for (ClusterState state : states) {
            long t0 = System.nanoTime();
            double searched =
                    exhaustive.evaluate(query, state).completionSeconds().orElseThrow();
            long t1 = System.nanoTime();
            heuristic.evaluate(query, state);
            long t2 = System.nanoTime();
            refined.evaluate(query, state);
            long t3 = System.nanoTime();
            exhaustiveNanos += t1 - t0;
            heuristicNanos += t2 - t1;
            refinedNanos += t3 - t2;
            double formula = SIZE / optimalThroughput(state, hosts);
            if (Math.abs(searched - formula) > 1e-9 * formula) {
                throw new IllegalStateException(
                        "optimum formula " + formula + " s disagrees with exhaustive " + searched);
            }
        }
        return new double[] {
            exhaustiveNanos / 1e3 / states.size(),
            heuristicNanos / 1e3 / states.size(),
            refinedNanos / 1e3 / states.size()
        };
    }

    static double optimalThroughput(ClusterState state, List<String> hosts) {
        double best = 0;
        for (String a : hosts) {
            double tx1 = state.load(a).txAvailable();
            for (String b : hosts) {
                if (b.equals(a)) {
                    continue;
                }
                double viaB = Math.min(
                        tx1, Math.min(state.load(b).rxAvailable(), state.load(b).txAvailable()));
                if (viaB <= best) {
                    continue;
                }
                for (String c : hosts) {
                    if (!c.equals(a) && !c.equals(b)) {
                        best = Math.max(best, Math.min(viaB, state.load(c).rxAvailable()));
                    }
                }
            }
        }
        return best;
    }

    private static Binding randomBinding(Random random, List<String> hosts) {
        List<String> shuffled = new ArrayList<>(hosts);
        java.util.Collections.shuffle(shuffled, random);
        return new Binding(Map.of("x1", shuffled.get(0), "x2", shuffled.get(1), "x3", shuffled.get(2)));
    }

    private static double cost(FlowEstimator estimator, QueryModel query, Binding binding, ClusterState state) {
        return FlowEvaluator.cost(estimator, query, binding, state);
    }

    /**
     * §5.1: equal capacities; each direction's background use uniform on 0-90%, or bimodal (0-10% or 80-90%); disks
     * ample and idle, or ({@code busyDisks}) of the network's capacity and as used.
     */
    static Map<String, HostLoad> state(Random random, List<String> hosts, boolean bimodal, boolean busyDisks) {
        Map<String, HostLoad> loads = new HashMap<>();
        double disk = busyDisks ? CAPACITY : 10 * CAPACITY;
        for (String host : hosts) {
            loads.put(
                    host,
                    new HostLoad(
                            CAPACITY,
                            use(random, bimodal),
                            CAPACITY,
                            use(random, bimodal),
                            disk,
                            busyDisks ? use(random, bimodal) : 0,
                            disk,
                            busyDisks ? use(random, bimodal) : 0));
        }
        return loads;
    }

    static double use(Random random, boolean bimodal) {
        double fraction = bimodal
                ? (random.nextBoolean() ? random.nextDouble() * 0.1 : 0.8 + random.nextDouble() * 0.1)
                : random.nextDouble() * 0.9;
        return fraction * CAPACITY;
    }
}
