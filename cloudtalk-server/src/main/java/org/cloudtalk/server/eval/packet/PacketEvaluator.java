package org.cloudtalk.server.eval.packet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.BindingEnumerator;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.Evaluator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;

/**
 * The {@code packet} evaluator (§4, §5.4): simulates the query's flows under each candidate binding with ns-3 over the
 * static topology and answers the binding that completes first, with its simulated completion time. Bindings come
 * without symmetric duplicates ({@link BindingEnumerator}), at most {@code bindingLimit} of them, simulated in
 * parallel within a wall-clock budget per query; the answer carries a note when the limit or the budget cut the
 * search. It uses static information only: the gathered load is not simulated.
 *
 * <p>Concurrency: thread-safe. The only shared state is the fixed pool of simulation threads, shared by all queries;
 * each simulation is its own helper process.
 */
public final class PacketEvaluator implements Evaluator {
    private final PacketSettings settings;
    private final PacketSimulator simulator;
    private final NetworkBuilder network;
    private final ExecutorService pool;

    public PacketEvaluator(PacketSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
        this.simulator = new PacketSimulator(settings.simulator());
        this.network = new NetworkBuilder(settings.topology());
        this.pool = Executors.newFixedThreadPool(settings.parallelism(), runnable -> {
            Thread thread = new Thread(runnable, "packet-sim");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline queryDeadline) {
        // The simulations stop at the budget or at the query's own deadline, whichever comes first.
        Duration budget = settings.budget().compareTo(queryDeadline.remaining()) < 0
                ? settings.budget()
                : queryDeadline.remaining();
        long deadline = System.nanoTime() + budget.toNanos();
        List<FlowPlan.Planned> plan = FlowPlan.of(query);
        if (!simulator.available()) {
            throw new SimulatorUnavailableException("the packet evaluator is unavailable: " + simulator.executable()
                    + " was not built (build the server where ns-3 is installed; bin/install-ns3 installs it)");
        }
        List<Binding> bindings = new BindingEnumerator(query).first(settings.bindingLimit() + 1);
        if (bindings.isEmpty()) {
            throw new EvaluationException("no binding gives the variables distinct values: they need more candidates");
        }
        List<String> notes = new ArrayList<>();
        if (bindings.size() > settings.bindingLimit()) {
            bindings = bindings.subList(0, settings.bindingLimit());
            notes.add("the search was cut at the binding limit of " + settings.bindingLimit()
                    + " (packet.bindings): more bindings were not simulated");
        }
        List<Future<Double>> runs = new ArrayList<>();
        for (Binding binding : bindings) {
            runs.add(pool.submit(() -> simulate(query, plan, binding, deadline)));
        }
        Binding best = null;
        double bestSeconds = Double.POSITIVE_INFINITY;
        int simulated = 0;
        try {
            for (int i = 0; i < runs.size(); i++) {
                Double seconds = result(runs.get(i), deadline);
                if (seconds == null) {
                    notes.add("the budget of " + settings.budget().toMillis() + " ms (packet.budget.ms) ran out after "
                            + simulated + " of " + bindings.size()
                            + " bindings: the answer is the best of those simulated");
                    break;
                }
                simulated++;
                if (best == null || seconds < bestSeconds) {
                    best = bindings.get(i);
                    bestSeconds = seconds;
                }
            }
        } finally {
            runs.forEach(run -> run.cancel(true));
        }
        if (best == null) {
            queryDeadline.check();
            throw new EvaluationException("the packet evaluator simulated no binding within its budget of "
                    + settings.budget().toMillis() + " ms; raise packet.budget.ms");
        }
        if (Double.isInfinite(bestSeconds)) {
            throw new EvaluationException("no binding lets every flow finish within the simulator's horizon");
        }
        return new Evaluation(best, OptionalDouble.of(bestSeconds), notes);
    }

    /** The binding's completion time, or null when the budget ran out first. */
    private static Double result(Future<Double> run, long deadline) {
        try {
            return run.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("packet simulation failed", e.getCause());
        }
    }

    private Double simulate(QueryModel query, List<FlowPlan.Planned> plan, Binding binding, long deadline)
            throws IOException, InterruptedException {
        try {
            return simulator
                    .run(network.build(query, plan, binding), Duration.ofNanos(deadline - System.nanoTime()))
                    .completionSeconds();
        } catch (TimeoutException e) {
            return null;
        }
    }
}
