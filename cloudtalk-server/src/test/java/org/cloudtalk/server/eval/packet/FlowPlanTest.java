package org.cloudtalk.server.eval.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.QueryModel;
import org.junit.jupiter.api.Test;

class FlowPlanTest {
    private static List<FlowPlan.Planned> plan(String text) {
        return FlowPlan.of(new QueryModel(new QueryParser().parse(text)));
    }

    @Test
    void transferBoundsBecomeStoreAndForwardAndStartsFollowEnds() {
        List<FlowPlan.Planned> plan = plan("A = (10.0.0.1 10.0.0.2)\n"
                + "a A -> 10.0.0.9 size 10KB transfer t(b)\n"
                + "b 10.0.0.5 -> A size 10KB\n"
                + "c 10.0.0.9 -> 10.0.0.5 size sz(b) * 2 start e(a) + 5ms\n"
                + "d 10.0.0.9 -> 10.0.0.6 size 1KB start st(c)\n");

        // Helper ids are positions (a = f1, b = f2...), each flow after those it waits for.
        assertThat(plan)
                .extracting(p -> p.id() + " " + p.bytes() + " " + p.startNanos() + " " + p.after())
                .containsExactly("f2 10240 0 []", "f1 10240 0 [f2]", "f3 20480 5000000 [f1]", "f4 1024 5000000 [f1]");
    }

    /** A bound that follows no flow's progress is a cap on the flow's size, not a reason to wait. */
    @Test
    void aTransferBoundWithoutTIsACapNotAWait() {
        assertThat(plan("f1 10.0.0.1 -> 10.0.0.2 size 10KB\nf2 10.0.0.2 -> 10.0.0.3 size 5KB transfer sz(f1)\n"
                        + "f3 10.0.0.2 -> 10.0.0.4 transfer sz(f1) / 2\n"
                        + "f4 10.0.0.2 -> 10.0.0.5 transfer t(f1) + 1KB\n"))
                .extracting(p -> p.id() + " " + p.bytes() + " " + p.after())
                .containsExactly("f1 10240 []", "f2 5120 []", "f3 5120 []", "f4 11264 [f1]");
    }

    @Test
    void refusesWhatItCannotSimulate() {
        assertThatThrownBy(() -> plan("A = (10.0.0.1 10.0.0.2)\nf1 10.0.0.5 -> A size 1M rate 10MBps\n"))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("packet evaluator: flow f1 has 'rate', which a packet simulation does not model");
        assertThatThrownBy(() -> plan("A = (10.0.0.1 disk)\nf1 10.0.0.5 -> A size 1M\n"))
                .hasMessage("packet evaluator: flow f1 must run between two hosts "
                        + "(the packet evaluator simulates the network only, not disks or the unknown source)");
        assertThatThrownBy(() -> plan("f1 0.0.0.0 -> 10.0.0.1 size 1M\n"))
                .hasMessage("packet evaluator: flow f1 must run between two hosts "
                        + "(the packet evaluator simulates the network only, not disks or the unknown source)");
        assertThatThrownBy(() -> plan("f1 10.0.0.2 -> 10.0.0.1\n"))
                .hasMessage(
                        "packet evaluator: flow f1 has no size (the packet evaluator simulates transfers of known size)");
        assertThatThrownBy(() ->
                        plan("f1 10.0.0.2 -> 10.0.0.1 size 1M start 2 * e(f2)\nf2 10.0.0.2 -> 10.0.0.3 size 1M\n"))
                .hasMessage("packet evaluator: flow f1 has a start the packet evaluator cannot simulate; "
                        + "use a time, e(f), st(f), or those + a time");
    }

    @Test
    void refusesFlowsThatCouldNeverFinishOrLieBeyondTheSimulatedTime() {
        assertThatThrownBy(() -> plan("f1 10.0.0.1 -> 10.0.0.2 size 10KB transfer 5KB\n"))
                .hasMessage("packet evaluator: flow f1 never finishes: its transfer cap (5120 bytes) is below its size"
                        + " (10240 bytes)");
        assertThatThrownBy(() ->
                        plan("f1 10.0.0.1 -> 10.0.0.2 size 10KB\nf2 10.0.0.2 -> 10.0.0.3 size 20KB transfer t(f1)\n"))
                .hasMessage("packet evaluator: flow f2 never finishes: its transfer cap (10240 bytes) is below its size"
                        + " (20480 bytes)");
        assertThatThrownBy(() -> plan("f1 10.0.0.1 -> 10.0.0.2 size 1KB start 1000000000s\n"))
                .hasMessage("packet evaluator: flow f1 starts after the 600 s the packet evaluator simulates");
        assertThatThrownBy(() -> plan("f1 10.0.0.1 -> 10.0.0.2 size 1KB\n"
                        + "f2 10.0.0.1 -> 10.0.0.3 size 1KB start e(f1) + 1000000000000s\n"))
                .hasMessage("packet evaluator: flow f2 starts after the 600 s the packet evaluator simulates");
        assertThatThrownBy(() -> plan("f1 10.0.0.1 -> 10.0.0.2 size 1000000TB\n"))
                .hasMessage("packet evaluator: flow f1 has a size over 1PB, more than the packet evaluator simulates");
    }
}
