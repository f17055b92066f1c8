package org.cloudtalk.benchmarks.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.exhaustive.ExhaustiveEvaluator;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.eval.refined.RefinedEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * Issue 16's "refined at heuristic speed" targets, shape by shape: the daisy chain, an HDFS write pipeline, a replica
 * read with busy disks, three reducers fed by three mappers, and a fan-in, over {@value #HOSTS} candidate hosts, and
 * §5.3's reduce query (5 reducers over {@value #REDUCE_HOSTS} hosts), hosts whose network and disk use is drawn uniform
 * (0-90%) or bimodal (0-10% or 80-90%) in each direction. The optimum is the exhaustive evaluator's; a ratio is the
 * optimum's completion time over the evaluator's binding's. Times are medians of single-threaded runs in the last of
 * {@value #TIMED_PASSES} passes after a warm-up pass over the same states. Also the chain at n = 100 (optimum by its
 * closed form, as in the Figure 3 harness). Prints a table and {@code csv,} lines.
 */
final class ShapesBenchmark {
    private static final int HOSTS = 8;
    private static final int TIMED_PASSES = 3;
    /** The §5.3 reduce query's size: 5 reducers over 20 hosts. */
    private static final int REDUCE_HOSTS = 20;

    private static final double CAPACITY = 125e6;

    /** A query shape over {@code hosts} candidates: {@code %s} in the template is the candidate list. */
    record Shape(String name, int hosts, String template) {
        Shape(String name, String template) {
            this(name, HOSTS, template);
        }
    }

    static final List<Shape> SHAPES = List.of(
            new Shape(
                    "daisy-chain",
                    "x1 = x2 = x3 = (%s)\nf1 x1 -> x2 size 100M\nf2 x2 -> x3 size sz(f1) transfer t(f1)"),
            new Shape(
                    "hdfs-write",
                    "R1 = R2 = R3 = (%s)\nf1 10.0.9.1 -> R1 size 64M\nf2 R1 -> R2 size sz(f1) transfer t(f1)\n"
                            + "f3 R2 -> R3 size sz(f1) transfer t(f2)\nw1 R1 -> disk size sz(f1) transfer t(f1)\n"
                            + "w2 R2 -> disk size sz(f1) transfer t(f2)\nw3 R3 -> disk size sz(f1) transfer t(f3)"),
            new Shape(
                    "replica-read", "R = (%s)\nf1 disk -> R size 64M rate r(f2)\nf2 R -> 10.0.9.1 size 64M rate r(f1)"),
            new Shape("reducers", "R1 = R2 = R3 = (%s)\n" + reducerFlows()),
            new Shape(
                    "fan-in",
                    "A = (%s)\nf1 10.0.9.1 -> A size 20M\nf2 10.0.9.2 -> A size 20M\nf3 10.0.9.3 -> A size 20M\n"
                            + "f4 10.0.9.4 -> A size 20M\ng A -> disk size 80M"),
            new Shape("reduce-query", REDUCE_HOSTS, "x1 = x2 = x3 = x4 = x5 = (%s)\n" + reduceFlows()));

    private ShapesBenchmark() {}

    static void run(int states, long seed) {
        System.out.printf(
                Locale.ROOT,
                "%d states per shape and distribution, %d candidate hosts, seed %d%n",
                states,
                HOSTS,
                seed);
        System.out.println("csv,shape,loads,hosts,evaluator,optimal_percent,worst_ratio,median_micros");
        ExhaustiveEvaluator exhaustive = new ExhaustiveEvaluator();
        for (Shape shape : SHAPES) {
            List<String> hosts = hosts(shape.hosts());
            QueryModel query =
                    new QueryModel(new QueryParser().parse(String.format(shape.template(), String.join(" ", hosts))));
            for (boolean bimodal : new boolean[] {false, true}) {
                Random random = new Random(seed + shape.name().hashCode() + (bimodal ? 1 : 0));
                List<ClusterState> generated = new ArrayList<>();
                double[] optimum = new double[states];
                for (int i = 0; i < states; i++) {
                    ClusterState state = state(random, hosts, bimodal);
                    generated.add(state);
                    optimum[i] = exhaustive
                            .evaluate(query, state)
                            .completionSeconds()
                            .orElseThrow();
                }
                report(shape.name(), bimodal, shape.hosts(), query, generated, optimum);
            }
        }
        // The chain at n = 100, d = 3: its optimum by the closed form the Figure 3 harness checks.
        List<String> many = hosts(100);
        QueryModel chain = new QueryModel(
                new QueryParser().parse(String.format(SHAPES.get(0).template(), String.join(" ", many))));
        for (boolean bimodal : new boolean[] {false, true}) {
            Random random = new Random(seed + 100 + (bimodal ? 1 : 0));
            List<ClusterState> generated = new ArrayList<>();
            double[] optimum = new double[states];
            for (int i = 0; i < states; i++) {
                ClusterState state = state(random, many, bimodal);
                generated.add(state);
                optimum[i] = 100 * 1024 * 1024 / AccuracyBenchmark.optimalThroughput(state, many);
            }
            report("daisy-chain", bimodal, 100, chain, generated, optimum);
        }
    }

    private static void report(
            String shape, boolean bimodal, int hosts, QueryModel query, List<ClusterState> states, double[] optimum) {
        FlowEstimator estimator = new FlowEstimator();
        Map<String, Evaluator> evaluators =
                Map.of("heuristic", new HeuristicEvaluator(), "refined", new RefinedEvaluator());
        for (String name : List.of("heuristic", "refined")) {
            Evaluator evaluator = evaluators.get(name);
            double[] ratios = new double[states.size()];
            for (int i = 0; i < states.size(); i++) {
                ClusterState state = states.get(i);
                double cost = FlowEvaluator.cost(
                        estimator, query, evaluator.evaluate(query, state).binding(), state);
                ratios[i] = optimum[i] / cost;
            }
            long[] nanos = new long[states.size()];
            // Timed passes after the accuracy pass: the last one counts, so the JIT has compiled the evaluator even
            // when other processes share the cores.
            for (int pass = 0; pass < TIMED_PASSES; pass++) {
                for (int i = 0; i < states.size(); i++) {
                    long start = System.nanoTime();
                    evaluator.evaluate(query, states.get(i));
                    nanos[i] = System.nanoTime() - start;
                }
            }
            Arrays.sort(nanos);
            long optimal = Arrays.stream(ratios).filter(r -> r >= 1 - 1e-9).count();
            double worst = Arrays.stream(ratios).min().orElse(Double.NaN);
            double median = nanos[nanos.length / 2] / 1e3;
            Object[] row = {
                shape, bimodal ? "bimodal" : "uniform", hosts, name, 100.0 * optimal / ratios.length, worst, median
            };
            System.out.printf(
                    Locale.ROOT, "  %-12s %-7s n=%-3d %-9s optimal %6.2f%%  worst %.3f x  median %8.1f us%n", row);
            System.out.printf(Locale.ROOT, "csv,%s,%s,%d,%s,%.2f,%.3f,%.1f%n", row);
        }
    }

    /** §5.3's reduce query ({@code QueryBuilder.reducers}): each reducer receives and stores at one rate. */
    private static String reduceFlows() {
        StringBuilder flows = new StringBuilder();
        for (int x = 1; x <= 5; x++) {
            flows.append("f%d 0.0.0.0 -> x%d size 64M rate r(f%d)%n".formatted(2 * x - 1, x, 2 * x));
            flows.append("f%d x%d -> disk size 64M rate r(f%d)%n".formatted(2 * x, x, 2 * x - 1));
        }
        return flows.toString();
    }

    private static String reducerFlows() {
        StringBuilder flows = new StringBuilder();
        for (int m = 1; m <= 3; m++) {
            for (int r = 1; r <= 3; r++) {
                flows.append("m%d%d 10.0.9.%d -> R%d size 20M%n".formatted(m, r, m, r));
            }
        }
        return flows.toString();
    }

    static List<String> hosts(int count) {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            hosts.add("10.0." + (i / 250) + "." + (i % 250 + 1));
        }
        return hosts;
    }

    /** Candidates with random network and disk use; the fixed endpoints (10.0.9.x) idle and ample. */
    static ClusterState state(Random random, List<String> hosts, boolean bimodal) {
        Map<String, HostLoad> loads = AccuracyBenchmark.state(random, hosts, bimodal, true);
        for (int i = 1; i <= 5; i++) {
            loads.put(
                    "10.0.9." + i,
                    new HostLoad(10 * CAPACITY, 0, 10 * CAPACITY, 0, 10 * CAPACITY, 0, 10 * CAPACITY, 0));
        }
        return new ClusterState(loads);
    }
}
