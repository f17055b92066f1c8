package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.relay.RelayAgents;

/**
 * {@code oscillation} (Figure 12 of the paper): many writers ask one CloudTalk server — as HDFS writers do through
 * their NameNode — where to put a 3-replica daisy chain, and copy along it. Each active host (the run's "busy"
 * fraction is the share of active writers) copies {@code files} files in succession, waiting 0-3 s (uniformly at
 * random) before each, through the relay agents (an HDFS pipeline's forwarding). The same writers run three times: with the
 * server's pseudo-reservations off ({@code reservation.hold.ms=0}), when answers that arrive before the daemons'
 * status shows the previous answers' load all name the same idle hosts; on as in the paper (300 ms, ending at once);
 * and on as the server's defaults have them (in full for 500 ms, then fading over the daemons' 1 s window). The run records
 * every copy's time and how unevenly answers spread replicas over the hosts (the busiest host's share over a fair
 * share).
 */
public final class Oscillation implements Experiment {
    /** The server's pseudo-reservations in each pass over the same writers, with the metrics' suffix. */
    enum Reservation {
        OFF("no-hold", 0, 0),
        PAPER("hold", 300, 0),
        FADING(
                "fade",
                ServerConfig.DEFAULT_RESERVATION_HOLD.toMillis(),
                ServerConfig.DEFAULT_RESERVATION_FADE.toMillis());

        final String suffix;
        final long holdMs;
        final long fadeMs;

        Reservation(String suffix, long holdMs, long fadeMs) {
            this.suffix = suffix;
            this.holdMs = holdMs;
            this.fadeMs = fadeMs;
        }

        String copyMetric() {
            return "copy-s-" + suffix;
        }

        String spreadMetric() {
            return "busiest-host-x-fair-" + suffix;
        }
    }

    private static final int REPLICAS = 3;
    private static final Duration MAX_PAUSE = Duration.ofSeconds(3);

    private final int files;
    private final long copyBytes;

    /** Three 64 MiB files per active writer, as in the paper's runs. */
    public Oscillation() {
        this(3, QueryUnderLoad.COPY_BYTES);
    }

    public Oscillation(int files, long copyBytes) {
        if (files < 1 || copyBytes < 1) {
            throw new IllegalArgumentException("files and bytes must be positive: " + files + ", " + copyBytes);
        }
        this.files = files;
        this.copyBytes = copyBytes;
    }

    @Override
    public String name() {
        return "oscillation";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.25, 0.5, 0.75, 0.9);
    }

    @Override
    public List<String> chartMetrics() {
        return Stream.of(Reservation.values()).map(Reservation::copyMetric).toList();
    }

    @Override
    public String chartTitle() {
        return "Copy time, reservations off, paper's, fading (p99 dashed)";
    }

    @Override
    public String xAxisTitle() {
        return "active writers (%)";
    }

    @Override
    public String yAxisTitle() {
        return "s";
    }

    @Override
    public boolean chartP99() {
        return true;
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        List<Host> writers = context.pickBusy(testbed.hosts());
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity;
        // Nothing saturates a link on purpose here: only the emulator's CPU is judged. The passes run in an order
        // drawn per run, so that none gains from coming later (warm relay agents, a quieter machine).
        try (RelayAgents agents = RelayAgents.start(testbed)) {
            fidelity = context.inDrawnOrder(
                    List.of(Reservation.values()), reservation -> reservation.suffix, rows, reservation -> {
                        String probe = QueryUnderLoad.query(writers.get(0), others(testbed, writers.get(0)));
                        try (ServerProcess server = ServerProcess.start(
                                        testbed,
                                        List.of(),
                                        ServerProcess.reservations(reservation.holdMs, reservation.fadeMs),
                                        probe);
                                FidelityMonitor monitor = FidelityMonitor.start(testbed, Set.of())) {
                            RunContext.pause(RunContext.SETTLE);
                            List<Copy> copies = copyConcurrently(testbed, writers, server, agents, context);
                            copies.forEach(copy -> rows.add(
                                    new Measurement(reservation.copyMetric(), copy.subject(), copy.seconds())));
                            rows.add(new Measurement(
                                    reservation.spreadMetric(),
                                    "run",
                                    busiestOverFair(copies, testbed.hosts().size())));
                            return monitor.verdict();
                        }
                    });
        }
        double off = p99(rows, Reservation.OFF.copyMetric());
        double paper = p99(rows, Reservation.PAPER.copyMetric());
        double fading = p99(rows, Reservation.FADING.copyMetric());
        int passes = Reservation.values().length;
        checks.add(new Check(
                "every copy finished",
                rows.stream().filter(row -> row.metric().startsWith("copy-s")).count()
                        == (long) passes * writers.size() * files,
                writers.size() + " writers x " + files + " files, " + passes + " times"));
        checks.add(new Check(
                "p99 copy time with reservations no worse than without (+10%)",
                paper <= off * 1.1 && fading <= off * 1.1,
                String.format(Locale.ROOT, "p99 %.2f s paper's, %.2f s fading, %.2f s without", paper, fading, off)));
        return new RunResult(rows, checks, fidelity);
    }

    /** Every writer's files, each after a random pause, all writers at once; a failed copy fails the run. */
    private List<Copy> copyConcurrently(
            Testbed testbed, List<Host> writers, ServerProcess server, RelayAgents agents, RunContext context) {
        Duration oneCopy =
                Duration.ofMillis(copyBytes * 8 * 1000 / testbed.config().rateBits() + 1);
        // Through busy links a copy gets a small share of each (see QueryUnderLoad): generous, and only a bound.
        Duration timeout = oneCopy.multipliedBy(150).plusSeconds(30);
        ExecutorService pool = Executors.newFixedThreadPool(writers.size());
        try {
            List<Future<List<Copy>>> perWriter = new ArrayList<>();
            for (Host writer : writers) {
                long seed = context.random().nextLong();
                perWriter.add(pool.submit(() -> copies(writer, testbed, server, agents, seed, timeout)));
            }
            List<Copy> all = new ArrayList<>();
            for (Future<List<Copy>> copies : perWriter) {
                all.addAll(copies.get());
            }
            return all;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof TestbedException failure
                    ? failure
                    : new TestbedException("a writer failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private List<Copy> copies(
            Host writer, Testbed testbed, ServerProcess server, RelayAgents agents, long seed, Duration timeout) {
        Random random = new Random(seed);
        List<Host> candidates = others(testbed, writer);
        Map<String, Host> byAddress = candidates.stream().collect(Collectors.toMap(Host::address, host -> host));
        String query = QueryUnderLoad.query(writer, candidates);
        List<Copy> copies = new ArrayList<>(files);
        for (int file = 0; file < files; file++) {
            RunContext.pause(Duration.ofMillis((long) (random.nextDouble() * MAX_PAUSE.toMillis())));
            QueryResult answer = server.ask(query);
            List<Host> chain = List.of("B", "C", "D").stream()
                    .map(variable -> byAddress.get(answer.bindings().get(variable)))
                    .toList();
            double seconds = agents.copy(writer, chain, copyBytes, timeout).toMillis() / 1e3;
            copies.add(new Copy(writer.namespace() + "-f" + file, chain, seconds));
        }
        return copies;
    }

    private static List<Host> others(Testbed testbed, Host writer) {
        List<Host> others = new ArrayList<>(testbed.hosts());
        others.remove(writer);
        return Collections.unmodifiableList(others);
    }

    /** Replicas on the busiest host over the mean per host: 1 is perfectly even. */
    static double busiestOverFair(List<Copy> copies, int hosts) {
        Map<Host, Integer> replicas = new HashMap<>();
        copies.forEach(copy -> copy.chain().forEach(host -> replicas.merge(host, 1, Integer::sum)));
        int busiest =
                replicas.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        double fair = copies.size() * (double) REPLICAS / hosts;
        return fair == 0 ? 0 : busiest / fair;
    }

    private static double p99(List<Measurement> rows, String metric) {
        return Percentiles.nearestRank(
                rows.stream()
                        .filter(row -> row.metric().equals(metric))
                        .map(Measurement::value)
                        .sorted()
                        .toList(),
                0.99);
    }

    /** One file copied by {@code subject}'s writer along {@code chain}. */
    record Copy(String subject, List<Host> chain, double seconds) {}
}
