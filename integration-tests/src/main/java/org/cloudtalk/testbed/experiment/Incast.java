package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Shaper;
import org.cloudtalk.testbed.net.Sysctls;
import org.cloudtalk.testbed.proc.ClasspathFile;
import org.cloudtalk.testbed.relay.RelayAgents;

/**
 * The packet simulator against the testbed (§5.4's incast): k hosts each send {@code bytes} to host 0 at once, over
 * connections opened beforehand, as index servers answer their aggregator, while host 0's download link holds only a
 * switch port's buffer ({@code bufferBytes} instead of the testbed's 2 MiB) and no burst beyond its rate. The same k flows are then simulated by a
 * CloudTalk server ({@code evaluator=packet}) over a topology that describes the testbed: every host in one rack, the
 * host tier at the testbed's rate with that buffer, the fabric above never in the way. The busy share is the share of
 * the other hosts that send: on 51 hosts, 0.1 is 5 senders and 1.0 is 50.
 */
public final class Incast implements Experiment {
    /** Gathers with Linux's loss recovery, tail loss probes included (its default). */
    static final String MEASURED = "measured-ms";
    /** Gathers with tail loss probes off, so that a lost tail waits for the retransmission timeout, as simulated. */
    static final String MEASURED_RTO_ONLY = "measured-ms-rto-only";

    /**
     * Gathers of one byte per sender: the request's way to the senders, their threads waking up and one packet back,
     * which a gather's time includes and the simulator does not model (§4: no operating system or application).
     */
    static final String OVERHEAD = "one-byte-gather-ms";

    static final String SIMULATED = "simulated-ms";
    /** Packets the receiver's port dropped per gather (a TSO/GSO packet of several segments counts once). */
    static final String PORT_DROPS = "port-drops-per-gather";
    /** The testbed's median over the simulated time. */
    static final String RATIO = "measured-over-simulated";
    /** The host tier's one-way delay in the topology: a veth pair and the core's forwarding, about 10 µs each way. */
    static final String HOST_LATENCY = "10us";

    /** The receiver's shaper sends at most two full-size packets at once, as near a switch port as htb gets. */
    static final int PORT_BURST_BYTES = 2 * 1514;

    private static final String CONGESTION_CONTROL = "net.ipv4.tcp_congestion_control";
    /** 3 (the default) sends tail loss probes; 0 sends none. */
    private static final String EARLY_RETRANSMIT = "net.ipv4.tcp_early_retrans";

    private static final Map<String, String> LINUX_RENO = Map.of(CONGESTION_CONTROL, "reno", EARLY_RETRANSMIT, "3");

    private static final Duration GATHER_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration BETWEEN_ROUNDS = Duration.ofMillis(50);

    private final long bytes;
    private final int rounds;
    private final int bufferBytes;

    /** 10 KB from each sender (the paper's search results), 20 rounds, a buffer of 50 full-size packets. */
    public Incast() {
        this(10 * 1024, 20, 50 * 1500);
    }

    public Incast(long bytes, int rounds, int bufferBytes) {
        if (bytes < 1 || bytes > Integer.MAX_VALUE || rounds < 1 || bufferBytes < 1500) {
            throw new IllegalArgumentException("bytes must be 1 B to 2 GiB, rounds positive and the buffer at least "
                    + "one packet (1500 B): " + bytes + ", " + rounds + ", " + bufferBytes);
        }
        this.bytes = bytes;
        this.rounds = rounds;
        this.bufferBytes = bufferBytes;
    }

    @Override
    public String name() {
        return "incast";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.1, 0.2, 0.4, 0.6, 0.8, 1.0);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(MEASURED, MEASURED_RTO_ONLY, OVERHEAD, SIMULATED);
    }

    @Override
    public String chartTitle() {
        return "Incast into one host: testbed vs packet simulator";
    }

    @Override
    public String xAxisTitle() {
        return "senders (% of the other hosts)";
    }

    @Override
    public String yAxisTitle() {
        return "ms until the last reply (avg; p99 dashed)";
    }

    @Override
    public boolean chartP99() {
        return true;
    }

    @Override
    public void check(TestbedConfig config) {
        if (config.latencyMs() != 0) {
            throw TestbedException.invalidValue(
                    config.latencyMs(),
                    "--latency",
                    "incast compares with a simulated switch port, which a delay line would hide;"
                            + " run it on a testbed without --latency");
        }
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        TestbedConfig config = testbed.config();
        check(config);
        Host receiver = testbed.host(0);
        List<Host> senders =
                context.pickBusy(testbed.hosts().subList(1, testbed.hosts().size()));
        String query = query(receiver, senders, bytes);
        Path topology = writeTopology(testbed, bufferBytes);
        String core = testbed.coreNamespace();
        List<Host> stacks = Stream.concat(Stream.of(receiver), senders.stream()).toList();
        int rate = config.rateMbit();
        // The simulator's TCP is NewReno; the namespaces' default (inherited from this machine) may be another.
        try (Sysctls.Restore reno = Sysctls.onHosts(stacks, LINUX_RENO)) {
            try {
                Shaper.reshape(core, receiver.coreLink(), rate, bufferBytes, PORT_BURST_BYTES);
                return measure(testbed, receiver, senders, stacks, query, topology);
            } finally {
                Shaper.reshape(core, receiver.coreLink(), rate, Shaper.QUEUE_BYTES, Shaper.BURST_BYTES);
            }
        }
    }

    private RunResult measure(
            Testbed testbed, Host receiver, List<Host> senders, List<Host> stacks, String query, Path topology) {
        List<Measurement> rows = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(
                        testbed,
                        "127.0.0.1",
                        List.of(),
                        List.of(
                                "topology.file=" + topology,
                                "packet.simulator=" + simulator(),
                                // One binding to simulate: no need to cut it short on a busy machine.
                                "packet.budget.ms=" + GATHER_TIMEOUT.toMillis()),
                        query);
                RelayAgents agents = RelayAgents.start(testbed, stacks)) {
            QueryResult answer = server.ask(query, EvaluatorName.PACKET, GATHER_TIMEOUT);
            double simulated = answer.estimatedCompletionSeconds()
                            .orElseThrow(() -> new TestbedException("the packet evaluator gave no estimate"))
                    * 1e3;
            rows.add(new Measurement(SIMULATED, senders.size() + " senders", simulated));
            Fidelity fidelity;
            double overheadMedian;
            double linuxMedian;
            double rtoOnlyMedian;
            try (FidelityMonitor monitor = FidelityMonitor.start(testbed, Set.of())) {
                // Unrecorded: the agents' first gather pays for their JIT and the hosts' first ARP lookups.
                agents.gather(receiver, senders, bytes, GATHER_TIMEOUT);
                overheadMedian = gathers(testbed, agents, receiver, senders, 1, OVERHEAD, rows);
                linuxMedian = gathers(testbed, agents, receiver, senders, bytes, MEASURED, rows);
                try (Sysctls.Restore rtoOnly = Sysctls.onHosts(stacks, Map.of(EARLY_RETRANSMIT, "0"))) {
                    rtoOnlyMedian = gathers(testbed, agents, receiver, senders, bytes, MEASURED_RTO_ONLY, rows);
                }
                fidelity = monitor.verdict();
            }
            rows.add(new Measurement(RATIO, "linux", linuxMedian / simulated));
            rows.add(new Measurement(RATIO, "rto-only", rtoOnlyMedian / simulated));
            double ratio = rtoOnlyMedian / simulated;
            Check agreement = new Check(
                    "the testbed's median without tail loss probes is within 2x of the simulated time",
                    ratio >= 0.5 && ratio <= 2,
                    String.format(
                            Locale.ROOT,
                            "%d senders x %d B: simulated %.2f ms; testbed median %.2f ms without tail loss probes,"
                                    + " %.2f ms with Linux's, %.2f ms for one byte each",
                            senders.size(),
                            bytes,
                            simulated,
                            rtoOnlyMedian,
                            linuxMedian,
                            overheadMedian));
            return new RunResult(rows, List.of(agreement), fidelity);
        }
    }

    /** {@code rounds} gathers of {@code length} bytes per sender, each recorded as {@code metric}; their median. */
    private double gathers(
            Testbed testbed,
            RelayAgents agents,
            Host receiver,
            List<Host> senders,
            long length,
            String metric,
            List<Measurement> rows) {
        long dropsBefore = Shaper.droppedPackets(testbed.coreNamespace(), receiver.coreLink());
        List<Double> times = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            RunContext.pause(BETWEEN_ROUNDS);
            double ms = agents.gather(receiver, senders, length, GATHER_TIMEOUT).toNanos() / 1e6;
            times.add(ms);
            rows.add(new Measurement(metric, "round-" + round, ms));
        }
        long drops = Shaper.droppedPackets(testbed.coreNamespace(), receiver.coreLink()) - dropsBefore;
        rows.add(new Measurement(PORT_DROPS, metric, drops / (double) rounds));
        return Percentiles.nearestRank(times.stream().sorted().toList(), 0.5);
    }

    /** One flow of {@code bytes} from each sender to the receiver, all starting at once. */
    static String query(Host receiver, List<Host> senders, long bytes) {
        return IntStream.range(0, senders.size())
                        .mapToObj(i -> "f" + (i + 1) + " " + senders.get(i).address() + " -> " + receiver.address()
                                + " size " + bytes + "B")
                        .collect(Collectors.joining("\n"))
                + "\n";
    }

    /**
     * The testbed as the packet simulator sees it: every host on one switch behind its access link (the host tier, at
     * the testbed's rate, with {@code bufferBytes} per port), and rack and pod tiers that never limit, as the core
     * namespace's forwarding does not.
     */
    static String topology(List<Host> hosts, int rateMbit, int bufferBytes) {
        return String.join(
                "\n",
                "# The testbed (incast experiment): one rack, access links at the testbed's rate.",
                "tier host rate " + rateMbit + "Mbps latency " + HOST_LATENCY + " buffer " + bufferBytes + "B",
                "tier rack rate 1Tbps latency 1us buffer 100000pkt",
                "tier pod rate 1Tbps latency 1us buffer 100000pkt",
                "rack testbed pod testbed " + hosts.stream().map(Host::address).collect(Collectors.joining(" ")),
                "");
    }

    private static Path writeTopology(Testbed testbed, int bufferBytes) {
        try {
            return Files.writeString(
                    testbed.runDir().resolve("incast.topo"),
                    topology(testbed.hosts(), testbed.config().rateMbit(), bufferBytes));
        } catch (IOException e) {
            throw new TestbedException("cannot write the incast topology: " + e.getMessage(), e);
        }
    }

    /** The ns-3 helper the server module's build made next to this build. */
    private static Path simulator() {
        Path helper = ClasspathFile.projectRoot().resolve("cloudtalk-server/target/native/packet-sim");
        if (!Files.isExecutable(helper)) {
            throw new TestbedException("the packet simulator " + helper + " is not built: install ns-3 with "
                    + "bin/install-ns3 (as root), then `mvn -pl integration-tests -am package -DskipTests`");
        }
        return helper;
    }
}
