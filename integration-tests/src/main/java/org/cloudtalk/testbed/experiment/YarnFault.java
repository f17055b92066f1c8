package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.MapReduceJobs;
import org.cloudtalk.testbed.hadoop.YarnPlacement;
import org.cloudtalk.testbed.net.Host;

/**
 * Issue 15's {@code fault}: {@code reduce-placement}'s sort with the CloudTalk server stopped {@link #STOP_AFTER}
 * after the CloudTalk job starts and started again (same address and port) {@link #DOWN} later, while its maps run
 * and its reduces are placed. The job must succeed and take no longer than stock's, whose jobs run on the same
 * input under the same blasts.
 */
public final class YarnFault implements Experiment {
    static final Duration STOP_AFTER = Duration.ofSeconds(5);
    static final Duration DOWN = Duration.ofSeconds(90);
    /** Each CloudTalk reduce's launch, in seconds after the server answered again (negative: while it was down). */
    static final String REDUCE_START = "reduce-start-s-after-restart";

    @Override
    public String name() {
        return "yarn-fault";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.3);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(YarnPlacement.values()).stream()
                .map(p -> YarnComparison.JOB_SECONDS + p.label())
                .toList();
    }

    @Override
    public String chartTitle() {
        return "Sort job time, CloudTalk server stopped and restarted during its job";
    }

    @Override
    public String xAxisTitle() {
        return "blasted hosts (%)";
    }

    @Override
    public String yAxisTitle() {
        return "seconds per job";
    }

    @Override
    public RunResult run(RunContext context) {
        List<Host> blasted = context.pickBusy(YarnComparison.workers(context.testbed()));
        return YarnComparison.run(
                context, List.of(YarnPlacement.values()), blasted, (yarn, placement, server, rows, checks) -> {
                    if (placement != YarnPlacement.CLOUDTALK) {
                        YarnComparison.sort(
                                yarn, placement.label(), Map.of(), blasted, YarnComparison.BLASTED, rows, checks);
                        return;
                    }
                    long[] down = new long[2];
                    RuntimeException[] outageFailure = new RuntimeException[1];
                    Thread outage = new Thread(
                            () -> {
                                try {
                                    RunContext.pause(STOP_AFTER);
                                    down[0] = System.currentTimeMillis();
                                    server.stop();
                                    RunContext.pause(DOWN);
                                    server.restart();
                                    down[1] = System.currentTimeMillis();
                                } catch (RuntimeException e) {
                                    outageFailure[0] = e;
                                }
                            },
                            "server-outage");
                    outage.start();
                    MapReduceJobs.Outcome sort;
                    long ended;
                    try {
                        sort = YarnComparison.sort(
                                yarn, placement.label(), Map.of(), blasted, YarnComparison.BLASTED, rows, checks);
                        ended = System.currentTimeMillis();
                        outage.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new org.cloudtalk.testbed.TestbedException("interrupted", e);
                    } finally {
                        // The job failed first: the outage stops where it is, and the run's close stops the server.
                        outage.interrupt();
                    }
                    if (outageFailure[0] != null) {
                        throw outageFailure[0];
                    }
                    rows.add(new Measurement("server-down-s", "stop to answering again", (down[1] - down[0]) / 1e3));
                    // How a reduce was placed, from its launch against the outage: while the server was down, by
                    // its last answer (within cloudtalk.yarn.stale.ms of the stop) or by Hadoop's order (after);
                    // once it was back, by a new answer.
                    int whileDown = 0;
                    for (MapReduceJobs.Reduce reduce : sort.reduces()) {
                        rows.add(new Measurement(REDUCE_START, reduce.host(), (reduce.startMillis() - down[1]) / 1e3));
                        if (reduce.startMillis() < down[1]) {
                            whileDown++;
                        }
                    }
                    rows.add(new Measurement(
                            "reduces-started-while-down", sort.reduces().size() + " reduces", whileDown));
                    checks.add(new Check(
                            "the server stopped while the CloudTalk job ran",
                            down[0] < ended,
                            String.format("stopped %.1f s before the job ended", (ended - down[0]) / 1e3)));
                });
    }
}
