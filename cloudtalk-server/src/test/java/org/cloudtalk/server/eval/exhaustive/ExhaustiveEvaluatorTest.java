package org.cloudtalk.server.eval.exhaustive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.cloudtalk.server.eval.States.MIB;
import static org.cloudtalk.server.eval.States.model;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.States;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.eval.flow.FlowEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExhaustiveEvaluatorTest {
    private final FlowEstimator estimator = new FlowEstimator();

    /** The paper's §5.3 reducer query (examples/paper/reducers.ctq) with {@code m} reducers over {@code hosts}. */
    private static QueryModel reducers(int m, List<String> hosts) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= m; i++) {
            text.append("x").append(i).append(" = ");
        }
        text.append(hosts.stream().collect(Collectors.joining(" ", "(", ")\n")));
        for (int i = 1; i <= m; i++) {
            int in = 2 * i - 1;
            int out = 2 * i;
            text.append("f%d 0.0.0.0 -> x%d size 1G rate r(f%d)\n".formatted(in, i, out));
            text.append("f%d x%d -> disk size 1G rate r(f%d)\n".formatted(out, i, in));
        }
        return model(text.toString());
    }

    private static List<String> hosts(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "10.0.0." + i).toList();
    }

    /** Hosts with different spare network and disk bandwidth, so that the choice of reducers matters. */
    private static ClusterState state(long seed, List<String> hosts) {
        return new ClusterState(States.busy(new Random(seed), hosts, 100 * MIB));
    }

    @Test
    void answersThePapersReducerQuery() throws Exception {
        QueryModel query = model(Files.readString(Path.of("../examples/paper/reducers.ctq")));
        assertThat(ExhaustiveEvaluator.searchSpace(query)).isEqualTo(6); // C(4, 2), not 4 * 4
        ClusterState state = state(1, hosts(4));
        Evaluation evaluation = new ExhaustiveEvaluator().evaluate(query, state);
        assertThat(evaluation.completionSeconds().getAsDouble())
                .isEqualTo(bruteForce(query, state).cost());
    }

    @Test
    void answersReducerQueriesWhoseOrderedBindingsExceedTheDefaultLimit() {
        // 20 * 19 * 18 * 17 = 116,280 ordered bindings (20^4 = 160,000 assignments), over the default of 100,000;
        // C(20, 4) = 4,845 without the reducers' permutations.
        List<String> hosts = hosts(20);
        QueryModel query = reducers(4, hosts);
        assertThat(ExhaustiveEvaluator.searchSpace(query)).isEqualTo(4845);
        assertThat(ExhaustiveEvaluator.searchSpace(query)
                        * query.query().flows().size())
                .isLessThanOrEqualTo(1_000_000); // limits.binding.flows' default
        ClusterState state = state(7, hosts);
        Evaluation evaluation = new ExhaustiveEvaluator().evaluate(query, state);
        Best expected = bruteForce(query, state);
        assertThat(evaluation.completionSeconds().getAsDouble()).isEqualTo(expected.cost());
        assertThat(evaluation.binding()).isEqualTo(expected.binding());
    }

    /**
     * On smaller instances, a brute force over every ordered binding finds the same optimum and the same binding (the
     * first of the best in plain order), for shapes whose symmetries involve references, flows between the
     * interchangeable variables, shared variables and other declarations that must stay distinct from them.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "x1 = x2 = x3 = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5 10.0.0.6)\n"
                        + "f1 0.0.0.0 -> x1 size 1G rate r(f2)\nf2 x1 -> disk size 1G rate r(f1)\n"
                        + "f3 0.0.0.0 -> x2 size 1G rate r(f4)\nf4 x2 -> disk size 1G rate r(f3)\n"
                        + "f5 0.0.0.0 -> x3 size 1G rate r(f6)\nf6 x3 -> disk size 1G rate r(f5)\n",
                "A = B = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5)\nC = (10.0.0.1 10.0.0.5 10.0.0.6)\n"
                        + "A -> B size 300M\nB -> A size 300M\nC -> 10.0.0.7 size 200M\n",
                "shared A = B = C = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)\nD = (10.0.0.1 10.0.0.2 10.0.0.5)\n"
                        + "A -> 10.0.0.9 size 100M\nB -> 10.0.0.9 size 100M\nC -> 10.0.0.9 size 100M\n"
                        + "D -> disk size 50M\n",
                "R1 = R2 = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5)\n"
                        + "f1 0.0.0.0 -> R1 size 500M\nf2 0.0.0.0 -> R2 size 500M\n"
                        + "f3 R1 -> disk size sz(f1) transfer t(f1)\nf4 R2 -> disk size sz(f2) transfer t(f2)\n"
            })
    void findsTheOptimumABruteForceFinds(String text) {
        QueryModel query = model(text);
        List<String> hosts = hosts(9);
        for (long seed = 1; seed <= 5; seed++) {
            ClusterState state = state(seed, hosts);
            Evaluation evaluation = new ExhaustiveEvaluator().evaluate(query, state);
            Best expected = bruteForce(query, state);
            assertThat(evaluation.completionSeconds().getAsDouble()).isEqualTo(expected.cost());
            assertThat(evaluation.binding()).isEqualTo(expected.binding());
        }
    }

    @Test
    void symmetricDuplicatesOfTheReducersHaveExactlyEqualCompletionTimes() {
        List<String> hosts = hosts(6);
        QueryModel query = reducers(3, hosts);
        ClusterState state = state(3, hosts);
        Map<List<String>, Double> bySet = new HashMap<>();
        for (Binding binding : ordered(query)) {
            List<String> set = binding.values().values().stream().sorted().toList();
            double cost = FlowEvaluator.cost(estimator, query, binding, state);
            Double previous = bySet.putIfAbsent(set, cost);
            if (previous != null) {
                assertThat(cost).isEqualTo(previous);
            }
        }
        assertThat(bySet).hasSize(20); // C(6, 3)
    }

    private record Best(Binding binding, double cost) {}

    /** The first best of every ordered binding (distinct values for non-shared variables), in declaration order. */
    private Best bruteForce(QueryModel query, ClusterState state) {
        Binding best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (Binding binding : ordered(query)) {
            double cost = FlowEvaluator.cost(estimator, query, binding, state);
            if (best == null || cost < bestCost) {
                best = binding;
                bestCost = cost;
            }
        }
        return new Best(best, bestCost);
    }

    private static List<Binding> ordered(QueryModel query) {
        List<Binding> out = new ArrayList<>();
        ordered(query.variables(), 0, new HashMap<>(), new HashSet<>(), out);
        return out;
    }

    private static void ordered(
            List<QueryModel.Variable> variables,
            int index,
            Map<String, String> current,
            Set<String> used,
            List<Binding> out) {
        if (index == variables.size()) {
            out.add(new Binding(current));
            return;
        }
        QueryModel.Variable variable = variables.get(index);
        for (String candidate : variable.candidates()) {
            if (!variable.shared() && !used.add(candidate)) {
                continue;
            }
            current.put(variable.name(), candidate);
            ordered(variables, index + 1, current, used, out);
            if (!variable.shared()) {
                used.remove(candidate);
            }
        }
    }
}
