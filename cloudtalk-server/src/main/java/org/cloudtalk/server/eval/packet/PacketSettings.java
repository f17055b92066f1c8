package org.cloudtalk.server.eval.packet;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.cloudtalk.server.topology.Topology;

/**
 * How the packet evaluator runs: over which topology, with which helper, how many bindings at most, how long per query,
 * and how many simulations at once.
 */
public record PacketSettings(
        Optional<Topology> topology,
        Path simulator,
        int bindingLimit,
        Duration budget,
        int parallelism,
        String budgetSetting) {
    public static final int DEFAULT_BINDING_LIMIT = 1000;
    public static final Duration DEFAULT_BUDGET = Duration.ofMillis(750);

    public PacketSettings {
        requireNonNull(topology, "topology is null");
        requireNonNull(simulator, "simulator is null");
        requireNonNull(budget, "budget is null");
        requireNonNull(budgetSetting, "budgetSetting is null");
        if (bindingLimit < 1 || parallelism < 1 || budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("binding limit, parallelism and budget must be positive");
        }
    }

    /** The server's: its notes tell a tenant to raise {@code packet.budget.ms}. */
    public PacketSettings(
            Optional<Topology> topology, Path simulator, int bindingLimit, Duration budget, int parallelism) {
        this(topology, simulator, bindingLimit, budget, parallelism, "packet.budget.ms");
    }

    /** No topology, the helper where the build puts it, and one simulation per core. */
    public static PacketSettings defaults() {
        return new PacketSettings(
                Optional.empty(),
                PacketSimulator.defaultExecutable(),
                DEFAULT_BINDING_LIMIT,
                DEFAULT_BUDGET,
                Runtime.getRuntime().availableProcessors());
    }
}
