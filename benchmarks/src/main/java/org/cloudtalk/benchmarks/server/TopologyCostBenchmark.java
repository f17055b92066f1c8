package org.cloudtalk.benchmarks.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Semaphore;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.exhaustive.ExhaustiveEvaluator;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.eval.refined.RefinedEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyException;
import org.cloudtalk.server.topology.TopologyParser;

/**
 * Issue 19: what a topology costs the flow estimator and the {@code refined} search that runs it, on the shapes of
 * {@link ShapesBenchmark} (its hosts and kinds of loads). The topology puts the candidates four to a rack (1 Gbit/s
 * hosts, 2:1 rack uplinks) and four racks to a pod (2:1 pod uplinks), and the shapes' fixed endpoints in a rack of
 * their own, so most flows cross uplinks. For each state the same work runs without and with the topology,
 * one after the other (alternating which goes first), so both see the same machine load: one estimate of the heuristic's binding, and one refined search.
 * Times are medians of the last of {@value #TIMED_PASSES} passes after a warm-up pass; {@code differs} counts states
 * where refined's binding changed, and {@code optimal} those (of the first {@value #CHECKED}; not at n = 100) where
 * refined over the topology finds the exhaustive optimum over it. Prints a table and {@code csv,} lines.
 */
final class TopologyCostBenchmark {
    private static final int TIMED_PASSES = 3;
    /** States per shape and distribution on which refined over the topology is compared with exhaustive search. */
    private static final int CHECKED = 100;

    static final String TOPOLOGY =
            """
            tier host rate 1Gbps latency 10us buffer 100pkt
            tier rack oversubscription 2 latency 10us buffer 100pkt
            tier pod oversubscription 2 latency 10us buffer 100pkt
            """;

    private TopologyCostBenchmark() {}

    static void run(int states, long seed) throws TopologyException {
        Topology topology = TopologyParser.parse(topologyText());
        System.out.printf(
                Locale.ROOT,
                "%d states per shape and distribution, seed %d; %d racks of 4 candidates%n",
                states,
                seed,
                topology.racks().size() - 1);
        System.out.println("csv,shape,loads,hosts,estimate_micros_without,estimate_micros_with,estimate_ratio,"
                + "refined_micros_without,refined_micros_with,refined_ratio,refined_differs_percent,"
                + "refined_optimal_percent_with,refined_worst_ratio_with");
        List<ShapesBenchmark.Shape> shapes = new ArrayList<>(ShapesBenchmark.SHAPES);
        shapes.add(new ShapesBenchmark.Shape(
                "daisy-chain", 100, ShapesBenchmark.SHAPES.get(0).template()));
        for (ShapesBenchmark.Shape shape : shapes) {
            List<String> hosts = ShapesBenchmark.hosts(shape.hosts());
            QueryModel query =
                    new QueryModel(new QueryParser().parse(String.format(shape.template(), String.join(" ", hosts))));
            for (boolean bimodal : new boolean[] {false, true}) {
                Random random = new Random(seed + shape.name().hashCode() + shape.hosts() + (bimodal ? 1 : 0));
                List<ClusterState> generated = new ArrayList<>();
                for (int i = 0; i < states; i++) {
                    generated.add(ShapesBenchmark.state(random, hosts, bimodal));
                }
                report(shape, bimodal, query, generated, topology);
            }
        }
    }

    private static void report(
            ShapesBenchmark.Shape shape,
            boolean bimodal,
            QueryModel query,
            List<ClusterState> states,
            Topology topology) {
        FlowEstimator[] estimators = {
            new FlowEstimator(), new FlowEstimator(FlowEstimator.DEFAULT_MAX_EVENTS, Optional.of(topology))
        };
        RefinedEvaluator[] refined = {refined(estimators[0]), refined(estimators[1])};
        HeuristicEvaluator heuristic = new HeuristicEvaluator();
        List<Binding> bindings =
                states.stream().map(s -> heuristic.evaluate(query, s).binding()).toList();
        long[][] estimateNanos = new long[2][states.size()];
        long[][] refinedNanos = new long[2][states.size()];
        int differs = 0;
        for (int pass = 0; pass <= TIMED_PASSES; pass++) {
            for (int i = 0; i < states.size(); i++) {
                ClusterState state = states.get(i);
                Binding[] answers = new Binding[2];
                for (int k = 0; k < 2; k++) {
                    int t = (i + k) % 2; // alternate which goes first, so neither always meets a cold cache
                    long start = System.nanoTime();
                    estimators[t].estimate(query, bindings.get(i), state);
                    long middle = System.nanoTime();
                    answers[t] = refined[t].evaluate(query, state).binding();
                    long end = System.nanoTime();
                    estimateNanos[t][i] = middle - start;
                    refinedNanos[t][i] = end - middle;
                }
                if (pass == 0 && !answers[0].equals(answers[1])) {
                    differs++;
                }
            }
        }
        int checked = shape.hosts() > 20 ? 0 : Math.min(CHECKED, states.size());
        ExhaustiveEvaluator exhaustive = new ExhaustiveEvaluator(ExhaustiveEvaluator.DEFAULT_LIMIT, estimators[1]);
        int optimal = 0;
        double worst = 1;
        for (int i = 0; i < checked; i++) {
            double best = exhaustive
                    .evaluate(query, states.get(i))
                    .completionSeconds()
                    .orElseThrow();
            double found = refined[1]
                    .evaluate(query, states.get(i))
                    .completionSeconds()
                    .orElseThrow();
            optimal += found <= best * (1 + 1e-9) ? 1 : 0;
            worst = Math.min(worst, best / found);
        }
        double[] estimate = {median(estimateNanos[0]), median(estimateNanos[1])};
        double[] search = {median(refinedNanos[0]), median(refinedNanos[1])};
        Object[] row = {
            shape.name(),
            bimodal ? "bimodal" : "uniform",
            shape.hosts(),
            estimate[0],
            estimate[1],
            estimate[1] / estimate[0],
            search[0],
            search[1],
            search[1] / search[0],
            100.0 * differs / states.size(),
            checked == 0 ? Double.NaN : 100.0 * optimal / checked,
            checked == 0 ? Double.NaN : worst
        };
        System.out.printf(
                Locale.ROOT,
                "  %-12s %-7s n=%-3d estimate %6.1f -> %6.1f us (%.2fx)  refined %6.1f -> %6.1f us (%.2fx)"
                        + "  refined binding differs %5.1f%%; with: optimal %6.2f%%, worst %.3fx%n",
                row);
        System.out.printf(Locale.ROOT, "csv,%s,%s,%d,%.2f,%.2f,%.3f,%.2f,%.2f,%.3f,%.1f,%.2f,%.3f%n", row);
    }

    private static RefinedEvaluator refined(FlowEstimator estimator) {
        return new RefinedEvaluator(
                new HeuristicEvaluator(),
                RefinedEvaluator.DEFAULT_BUDGET,
                Long.MAX_VALUE,
                estimator,
                new Semaphore(Integer.MAX_VALUE));
    }

    /** Racks of four over 10.0.0.1-10.0.0.255 (every candidate of the shapes), four racks a pod; 10.0.9.x apart. */
    static String topologyText() {
        StringBuilder text = new StringBuilder(TOPOLOGY);
        for (int first = 1, rack = 1; first <= 255; first += 4, rack++) {
            int last = Math.min(255, first + 3);
            text.append("rack r%d pod p%d 10.0.0.%d-10.0.0.%d%n".formatted(rack, (rack - 1) / 4 + 1, first, last));
        }
        text.append("rack fixed pod fixed 10.0.9.1-10.0.9.5\n");
        return text.toString();
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e3;
    }
}
