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
import org.cloudtalk.server.eval.CostLimitException;
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
        Simulations simulations = simulateAll(query, queryDeadline);
        Simulated best = null;
        for (Simulated simulated : simulations.simulated()) {
            if (best == null || simulated.seconds() < best.seconds()) {
                best = simulated;
            }
        }
        if (Double.isInfinite(best.seconds())) {
            throw new EvaluationException("no binding lets every flow finish within the simulator's horizon");
        }
        return new Evaluation(best.binding(), OptionalDouble.of(best.seconds()), simulations.notes());
    }

    /**
     * Simulates the query's bindings (without symmetric duplicates, at most the binding limit) until the budget or the
     * query's deadline, whichever comes first, and returns every binding simulated by then, in enumeration order. At
     * least one binding is simulated, or this throws.
     */
    public Simulations simulateAll(QueryModel query, Deadline queryDeadline) {
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
        List<Simulated> simulated = new ArrayList<>();
        try {
            for (int i = 0; i < runs.size(); i++) {
                Double seconds = result(runs.get(i), deadline);
                if (seconds == null) {
                    notes.add("the budget of " + settings.budget().toMillis() + " ms (" + settings.budgetSetting()
                            + ") ran out after "
                            + simulated.size() + " of " + bindings.size()
                            + " bindings: the answer is the best of those simulated");
                    break;
                }
                simulated.add(new Simulated(bindings.get(i), seconds));
            }
        } finally {
            runs.forEach(run -> run.cancel(true));
        }
        if (simulated.isEmpty()) {
            queryDeadline.check();
            // Over a configured limit, not unanswerable: OVER_LIMITS, as the message's advice says.
            throw new CostLimitException("the packet evaluator simulated no binding within its budget of "
                    + settings.budget().toMillis() + " ms; raise " + settings.budgetSetting());
        }
        return new Simulations(simulated, bindings.size(), notes);
    }

    /** One binding's simulated completion time in seconds, infinite when some flow did not finish. */
    public record Simulated(Binding binding, double seconds) {
        public Simulated {
            requireNonNull(binding, "binding is null");
        }
    }

    /** The bindings simulated within the budget, out of how many were listed, and what the search left out. */
    public record Simulations(List<Simulated> simulated, int listed, List<String> notes) {
        public Simulations {
            simulated = List.copyOf(simulated);
            notes = List.copyOf(notes);
        }
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
            throws InterruptedException {
        try {
            return simulator
                    .run(network.build(query, plan, binding), Duration.ofNanos(deadline - System.nanoTime()))
                    .completionSeconds();
        } catch (TimeoutException e) {
            return null;
        } catch (IOException e) {
            // The evaluator sends only input within the helper's ranges: a helper that fails on it is not one that
            // works (another program, or a broken build), whichever binding meets it first.
            throw new SimulatorUnavailableException(
                    "the packet simulator " + simulator.executable() + " failed: " + e.getMessage());
        }
    }
}
