package org.cloudtalk.server.config;

import static org.cloudtalk.common.config.ConfigValues.address;
import static org.cloudtalk.common.config.ConfigValues.number;
import static org.cloudtalk.common.config.ConfigValues.path;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.client.api.HttpApi;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.common.config.ConfigValues;
import org.cloudtalk.server.eval.packet.PacketSettings;
import org.cloudtalk.server.eval.packet.PacketSimulator;
import org.cloudtalk.server.http.HttpLimits;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyException;
import org.cloudtalk.server.topology.TopologyParser;

/**
 * The server's settings from a properties file and flag overrides; every key is in docs/server.md. Unknown keys and
 * bad values are errors ({@code Invalid value V for K: reason}).
 */
public record ServerConfig(
        InetSocketAddress bind,
        HttpLimits http,
        Optional<Path> statusFile,
        Optional<Path> keyFile,
        Optional<Path> locatorMap,
        int daemonPort,
        Duration gatherWait,
        Duration statusReuse,
        Duration statusMaxAge,
        Duration reservationHold,
        Duration reservationFade,
        Duration defaultTimeout,
        Sampling sampling,
        TenantLimits limits,
        int workers,
        int workerQueue,
        Optional<Topology> topology,
        PacketSettings packet,
        int workersPerTenant) {
    public static final int DEFAULT_PORT = 7480;
    /**
     * Pseudo-reservations in full for the daemons' default sampling interval plus the default status reuse, then
     * fading over the daemons' default smoothing window (docs/server.md).
     */
    public static final Duration DEFAULT_RESERVATION_HOLD = Duration.ofMillis(500);

    public static final Duration DEFAULT_RESERVATION_FADE = Duration.ofSeconds(1);
    /**
     * Long enough for a daemon on a busy host, or the first query after a start: with 10 ms, queries were answered as
     * if every host were heavily loaded (benchmarks/results/server-gather-wait-cold-busy.csv). Waiting longer costs only
     * when a daemon does not answer at all.
     */
    private static final long DEFAULT_GATHER_WAIT_MILLIS = 100;

    private static final Set<String> KEYS = Set.of(
            "bind",
            "port",
            "http.max.connections",
            "http.request.deadline.ms",
            "status.file",
            "status.key.file",
            "locator.map",
            "locator.port",
            "gather.wait.ms",
            "status.reuse.ms",
            "status.max.age.ms",
            "reservation.hold.ms",
            "reservation.fade.ms",
            "timeout.ms",
            "sampling.threshold",
            "sampling.size",
            "limits.query.chars",
            "limits.flows",
            "limits.variables",
            "limits.candidates",
            "limits.exhaustive.bindings",
            "limits.queries.per.second",
            "limits.burst",
            "limits.binding.flows",
            "limits.estimator.events",
            "workers",
            "workers.queue",
            "topology.file",
            "packet.simulator",
            "packet.bindings",
            "packet.budget.ms",
            "packet.parallelism",
            "workers.per.tenant");

    /** A properties file of server keys; {@code flag} names the option that gave it. */
    public static Map<String, String> read(Path file, String flag) throws ConfigException {
        return ConfigValues.read(file, flag);
    }

    public static ServerConfig from(Map<String, String> values) throws ConfigException {
        ConfigValues.checkKeys(values, KEYS::contains);
        Optional<Path> statusFile = path(values, "status.file");
        Optional<Path> keyFile = path(values, "status.key.file");
        if (statusFile.isEmpty() && keyFile.isEmpty()) {
            throw new ConfigException("Set status.key.file (to ask the status daemons) or status.file (a status file)");
        }
        Optional<Topology> topology = topology(values);
        TenantLimits defaults = TenantLimits.DEFAULT;
        TenantLimits limits = new TenantLimits(
                (int) number(values, "limits.query.chars", defaults.maxQueryChars(), 1, HttpApi.MAX_QUERY_CHARS),
                (int) number(values, "limits.flows", defaults.maxFlows(), 1, 1_000_000),
                (int) number(values, "limits.variables", defaults.maxVariables(), 1, 100_000),
                (int) number(values, "limits.candidates", defaults.maxCandidates(), 1, 10_000_000),
                number(values, "limits.exhaustive.bindings", defaults.maxExhaustiveBindings(), 1, 1_000_000_000),
                number(values, "limits.queries.per.second", (long) defaults.queriesPerSecond(), 1, 10_000_000),
                (int) number(values, "limits.burst", defaults.burst(), 1, 10_000_000),
                number(values, "limits.binding.flows", defaults.maxBindingFlows(), 1, 1_000_000_000_000L),
                (int) number(values, "limits.estimator.events", defaults.maxEstimatorEvents(), 1, 100_000_000));
        int workers = (int) number(values, "workers", 16, 1, 1024);
        // By default no tenant may hold more than half the workers, so one busy tenant leaves room for the others.
        int workersPerTenant = (int) number(values, "workers.per.tenant", Math.max(1, workers / 2), 1, workers);
        return new ServerConfig(
                new InetSocketAddress(
                        address(values, "bind", "127.0.0.1"), (int) number(values, "port", DEFAULT_PORT, 0, 65_535)),
                new HttpLimits(
                        (int) number(values, "http.max.connections", HttpLimits.DEFAULT.maxConnections(), 1, 1_000_000),
                        Duration.ofMillis(number(
                                values,
                                "http.request.deadline.ms",
                                HttpLimits.DEFAULT.requestDeadline().toMillis(),
                                1,
                                3_600_000))),
                statusFile,
                keyFile,
                path(values, "locator.map"),
                (int) number(values, "locator.port", 7450, 1, 65_535),
                Duration.ofMillis(number(values, "gather.wait.ms", DEFAULT_GATHER_WAIT_MILLIS, 1, 60_000)),
                Duration.ofMillis(number(values, "status.reuse.ms", 250, 0, 3_600_000)),
                Duration.ofMillis(number(values, "status.max.age.ms", 2_000, 1, 3_600_000)),
                Duration.ofMillis(
                        number(values, "reservation.hold.ms", DEFAULT_RESERVATION_HOLD.toMillis(), 0, 3_600_000)),
                Duration.ofMillis(
                        number(values, "reservation.fade.ms", DEFAULT_RESERVATION_FADE.toMillis(), 0, 3_600_000)),
                Duration.ofMillis(number(values, "timeout.ms", 1000, 1, 60_000)),
                new Sampling(
                        (int) number(values, "sampling.threshold", Sampling.DEFAULT.threshold(), 1, 1_000_000),
                        (int) number(values, "sampling.size", Sampling.DEFAULT.sampleSize(), 1, 1_000_000)),
                limits,
                workers,
                (int) number(values, "workers.queue", 1024, 1, 1_000_000),
                topology,
                new PacketSettings(
                        topology,
                        path(values, "packet.simulator").orElse(PacketSimulator.defaultExecutable()),
                        (int) number(values, "packet.bindings", PacketSettings.DEFAULT_BINDING_LIMIT, 1, 1_000_000),
                        Duration.ofMillis(number(
                                values, "packet.budget.ms", PacketSettings.DEFAULT_BUDGET.toMillis(), 1, 3_600_000)),
                        (int) number(
                                values,
                                "packet.parallelism",
                                Runtime.getRuntime().availableProcessors(),
                                1,
                                256)),
                workersPerTenant);
    }

    private static Optional<Topology> topology(Map<String, String> values) throws ConfigException {
        Optional<Path> file = path(values, "topology.file");
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(TopologyParser.read(file.get()));
        } catch (TopologyException e) {
            throw ConfigException.invalid("topology.file", file.get().toString(), e.getMessage());
        }
    }
}
