package org.cloudtalk.testbed.experiment;

import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.YarnPlacement;
import org.cloudtalk.testbed.net.Host;

/**
 * Issue 15's {@code reduce-placement} (§5.3, Figures 7-8): a sort job with as many reduces as half the workers while
 * unresponsive UDP from outside the cluster takes most of the receive link of the busy fraction of the workers;
 * the job's time and each successful reduce's shuffle time with YARN's CapacityScheduler at its defaults, with its
 * multi-node {@code ResourceUsageMultiNodeLookupPolicy}, and with CloudTalk's node order.
 */
public final class ReducePlacement implements Experiment {
    @Override
    public String name() {
        return "reduce-placement";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.1, 0.3, 0.5, 0.7);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(YarnPlacement.values()).stream()
                .flatMap(p -> java.util.stream.Stream.of(
                        YarnComparison.SHUFFLE_SECONDS + p.label(), YarnComparison.JOB_SECONDS + p.label()))
                .toList();
    }

    @Override
    public String chartTitle() {
        return "Sort job and shuffle time with UDP blasts into some hosts";
    }

    @Override
    public String xAxisTitle() {
        return "blasted hosts (%)";
    }

    @Override
    public String yAxisTitle() {
        return "seconds (avg)";
    }

    @Override
    public RunResult run(RunContext context) {
        List<Host> blasted = context.pickBusy(YarnComparison.workers(context.testbed()));
        return YarnComparison.run(
                context,
                List.of(YarnPlacement.values()),
                blasted,
                (yarn, placement, server, rows, checks) -> YarnComparison.sort(
                        yarn, placement.label(), Map.of(), blasted, YarnComparison.BLASTED, rows, checks));
    }
}
