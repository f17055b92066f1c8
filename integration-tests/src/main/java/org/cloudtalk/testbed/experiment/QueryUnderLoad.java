package org.cloudtalk.testbed.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.relay.RelayAgent;
import org.cloudtalk.testbed.relay.RelayAgents;

/**
 * {@code query-under-load}: host 0 writes 3 replicas along a daisy chain (§4.1) and asks a CloudTalk server where;
 * k of the other hosts are busy. Whenever at least 3 candidates are idle, CloudTalk's answers must avoid every busy
 * host in at least 99% of queries; random choice of 3 distinct candidates avoids them at the hypergeometric rate
 * C(idle, 3) / C(candidates, 3), which the run also samples. The server runs in the root namespace (the control
 * plane) and reaches every daemon over the unshaped management links. Then, under the same load, it times 64 MiB
 * copies from host 0 along chains (a {@link RelayAgent} per host forwards as an HDFS pipeline does): each round one
 * along the chain CloudTalk answers and one along a random chain.
 */
public final class QueryUnderLoad implements Experiment {
    static final String CLOUDTALK = "cloudtalk-avoids-busy-%";
    static final String RANDOM = "random-avoids-busy-%";
    static final String RANDOM_EXPECTED = "random-expected-%";
    static final String LATENCY = "query-ms";
    static final String COPY_CLOUDTALK = "copy-cloudtalk-s";
    static final String COPY_RANDOM = "copy-random-s";
    static final long COPY_BYTES = 64L << 20;
    static final int REPLICAS = 3;
    static final double MIN_AVOIDED = 0.99;
    private static final int QUERIES = 100;
    private static final Duration SPACING = Duration.ofMillis(20);

    private final int copies;
    private final long copyBytes;

    /** Four timed 64 MiB copies along CloudTalk's chain and four along random ones per run. */
    public QueryUnderLoad() {
        this(4, COPY_BYTES);
    }

    /** {@code copies} timed copies of {@code copyBytes} along CloudTalk's chain and as many along random ones. */
    public QueryUnderLoad(int copies, long copyBytes) {
        if (copies < 0 || copyBytes < 1) {
            throw new IllegalArgumentException(
                    "copies must not be negative and bytes must be positive: " + copies + ", " + copyBytes);
        }
        this.copies = copies;
        this.copyBytes = copyBytes;
    }

    @Override
    public String name() {
        return "query-under-load";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.1, 0.3, 0.5, 0.7, 0.9);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(CLOUDTALK, RANDOM, RANDOM_EXPECTED);
    }

    @Override
    public String chartTitle() {
        return "Daisy-chain answers that avoid every busy host";
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        Host writer = testbed.host(0);
        List<Host> candidates = testbed.hosts().subList(1, testbed.hosts().size());
        List<Host> busy = context.pickBusy(candidates);
        Set<String> busyAddresses = busy.stream().map(Host::address).collect(Collectors.toSet());
        String query = query(writer, candidates);
        List<Measurement> rows = new ArrayList<>();
        int idle = candidates.size() - busy.size();
        double expected = choose(idle, REPLICAS) / choose(candidates.size(), REPLICAS);
        rows.add(new Measurement(RANDOM_EXPECTED, "hypergeometric", expected * 100));
        // A copy takes 64 MiB / R on idle links and a few times that through busy ones. The load must outlast every
        // copy; stopping it early is free.
        Duration oneCopy =
                Duration.ofMillis(copyBytes * 8 * 1000 / testbed.config().rateBits() + 1);
        Duration loadTime = RunContext.SETTLE.plusSeconds(30).plus(oneCopy.multipliedBy(150L * copies));
        // The relay agents start before anything is measured: 24 JVMs starting would skew the fidelity check.
        try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, loadTime);
                RelayAgents agents = copies > 0 ? RelayAgents.start(testbed) : null;
                ServerProcess server = ServerProcess.start(testbed, List.of(), List.of(), query)) {
            RunContext.pause(RunContext.SETTLE);
            int avoided = 0;
            Fidelity fidelity;
            try (FidelityMonitor monitor = FidelityMonitor.start(testbed, load.saturatedLinks())) {
                for (int q = 0; q < QUERIES; q++) {
                    long start = System.nanoTime();
                    QueryResult result = server.ask(query);
                    rows.add(new Measurement(LATENCY, "q" + q, (System.nanoTime() - start) / 1e6));
                    boolean clean = avoids(result.bindings().values(), busyAddresses);
                    avoided += clean ? 1 : 0;
                    rows.add(new Measurement(CLOUDTALK, "q" + q, clean ? 100 : 0));
                    List<Host> shuffled = new ArrayList<>(candidates);
                    Collections.shuffle(shuffled, context.random());
                    boolean randomClean = avoids(
                            shuffled.subList(0, REPLICAS).stream()
                                    .map(Host::address)
                                    .toList(),
                            busyAddresses);
                    rows.add(new Measurement(RANDOM, "q" + q, randomClean ? 100 : 0));
                    RunContext.pause(SPACING);
                }
                fidelity = monitor.verdict();
            }
            if (agents != null) {
                // A copy crossing a busy link competes with the ring there and may be held back elsewhere, so the
                // ring no longer fills every busy link: during the copies only the CPU is judged.
                try (FidelityMonitor monitor = FidelityMonitor.start(testbed, Set.of())) {
                    timeCopies(agents, writer, candidates, server, query, context, oneCopy, rows);
                    fidelity = Fidelity.both(fidelity, monitor.verdict(), "during the copies");
                }
            }
            double share = avoided / (double) QUERIES;
            Check check = idle >= REPLICAS
                    ? new Check(
                            "answers avoid busy hosts in >= 99% of queries",
                            share >= MIN_AVOIDED,
                            String.format("%.1f%% (random: %.1f%% expected)", share * 100, expected * 100))
                    : new Check(
                            "fewer than 3 idle candidates: nothing to promise",
                            true,
                            String.format("%.1f%% avoided", share * 100));
            return new RunResult(rows, List.of(check), fidelity);
        }
    }

    /** Alternates a copy along the chain CloudTalk answers now with one along a random chain, {@code copies} times. */
    private void timeCopies(
            RelayAgents agents,
            Host writer,
            List<Host> candidates,
            ServerProcess server,
            String query,
            RunContext context,
            Duration oneCopy,
            List<Measurement> rows) {
        Map<String, Host> byAddress = candidates.stream().collect(Collectors.toMap(Host::address, host -> host));
        // Through busy links a copy gets a small share of each (measured: 10x slower through one, 60x through two).
        Duration timeout = oneCopy.multipliedBy(150).plusSeconds(30);
        for (int c = 0; c < copies; c++) {
            QueryResult answer = server.ask(query);
            List<Host> chosen = List.of("B", "C", "D").stream()
                    .map(variable -> byAddress.get(answer.bindings().get(variable)))
                    .toList();
            rows.add(new Measurement(
                    COPY_CLOUDTALK,
                    "c" + c,
                    agents.copy(writer, chosen, copyBytes, timeout).toMillis() / 1e3));
            List<Host> shuffled = new ArrayList<>(candidates);
            Collections.shuffle(shuffled, context.random());
            rows.add(new Measurement(
                    COPY_RANDOM,
                    "c" + c,
                    agents.copy(writer, shuffled.subList(0, REPLICAS), copyBytes, timeout)
                                    .toMillis()
                            / 1e3));
        }
    }

    /** The §4.1 daisy chain: the writer sends to B, B to C, C to D; B, C and D bind to distinct candidates. */
    static String query(Host writer, List<Host> candidates) {
        String pool = candidates.stream().map(Host::address).collect(Collectors.joining(" "));
        return String.join(
                "\n",
                "B = C = D = (" + pool + ")",
                "f1 " + writer.address() + " -> B size 64M",
                "f2 B -> C size sz(f1) transfer t(f1)",
                "f3 C -> D size sz(f1) transfer t(f2)",
                "");
    }

    private static boolean avoids(Collection<String> chosen, Set<String> busy) {
        return chosen.stream().noneMatch(busy::contains);
    }

    static double choose(int n, int k) {
        if (k > n) {
            return 0;
        }
        double result = 1;
        for (int i = 0; i < k; i++) {
            result = result * (n - i) / (i + 1);
        }
        return result;
    }
}
