package org.cloudtalk.server.eval.refined;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.Coupled;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.States;
import org.cloudtalk.server.eval.flow.FlowEstimator;
import org.cloudtalk.server.state.ClusterState;
import org.junit.jupiter.api.Test;

class CompletionBoundTest {
    private final FlowEstimator estimator = new FlowEstimator();

    /** The bound is only useful for pruning if the estimator never finishes a binding sooner than it. */
    @Test
    void neverExceedsTheEstimatedCompletion() {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            hosts.add("10.0.0." + i);
        }
        QueryModel query = States.model("A = B = C = D = (" + String.join(" ", hosts) + ")\n"
                + "f1 disk -> A size 64M\nf2 A -> B size sz(f1) transfer t(f1)\nf3 B -> C size sz(f1) * 2\n"
                + "f4 D -> C size 10M start e(f1)\nf5 C -> disk size 5M rate r(f4)\nf6 A -> D");
        Random random = new Random(16);
        int tight = 0;
        for (int i = 0; i < 500; i++) {
            ClusterState state = States.random(random, hosts, 100 * States.MIB, i % 2 == 0);
            List<String> shuffled = new ArrayList<>(hosts);
            Collections.shuffle(shuffled, random);
            Map<String, String> binding = new HashMap<>();
            for (int v = 0; v < 4; v++) {
                binding.put(String.valueOf((char) ('A' + v)), shuffled.get(v));
            }
            BindingSpace space = new BindingSpace(query);
            double bound = new CompletionBound(query, space, state).of(space.of(binding));
            double estimated =
                    estimator.estimate(query, new Binding(binding), state).completionSeconds();
            assertThat(bound).as("state %d", i).isPositive().isLessThanOrEqualTo(estimated * (1 + 1e-12));
            tight += bound >= estimated * (1 - 1e-9) ? 1 : 0;
        }
        assertThat(tight).as("bindings whose bound is the estimate itself").isPositive();
    }

    @Test
    void addsUpTheBytesEachResourceCarries() {
        // f1 and f3 both read 10.9.0.1's disk (50e6 bytes/s left): 200 MiB through it take 4.19 s at least.
        QueryModel query = States.model(
                "f1 disk -> 10.9.0.1 size 100M\nf2 10.9.0.2 -> 10.9.0.3 size 1M\nf3 disk -> 10.9.0.1 size sz(f1)");
        BindingSpace space = new BindingSpace(query);
        assertThat(new CompletionBound(query, space, new ClusterState(Coupled.hosts())).of(space.of(Map.of())))
                .isCloseTo(200 * States.MIB / 50e6, within(1e-9));
    }
}
