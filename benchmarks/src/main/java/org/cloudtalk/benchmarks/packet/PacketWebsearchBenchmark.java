package org.cloudtalk.benchmarks.packet;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.packet.PacketEvaluator;
import org.cloudtalk.server.eval.packet.PacketSettings;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyParser;

/**
 * §5.4 of the paper: where to put web search's two aggregators. 100 index servers send 10 KB each to their aggregator
 * (the first 50 to AGG1, the others to AGG2), which forwards each result to the frontend; the aggregators may go on 10
 * hosts in different racks, and may coincide (a single aggregator). Simulated with the packet evaluator on the VL2-like
 * 1,200-server topology of examples/topology/vl2-1200.topo with 50-packet port buffers.
 *
 * <p>Each of the 100 placements is first simulated on its own (a query whose aggregators have one candidate each), to
 * report single-aggregator, worst and best two-level delays; then the whole query is evaluated once, timed, and its
 * pick compared with the best placement.
 */
public final class PacketWebsearchBenchmark {
    private static final String FRONTEND = "10.3.1.1";
    private static final List<String> CANDIDATES = List.of(
            "10.1.1.40",
            "10.2.1.40",
            "10.1.3.40",
            "10.2.3.40",
            "10.3.2.40",
            "10.3.3.40",
            "10.4.2.40",
            "10.5.2.40",
            "10.6.2.40",
            "10.4.3.40");

    private PacketWebsearchBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path topologyFile = Path.of(args.length > 0 ? args[0] : "examples/topology/vl2-1200.topo");
        Path simulator = Path.of(args.length > 1 ? args[1] : "cloudtalk-server/target/native/packet-sim");
        Path csv = Path.of(args.length > 2 ? args[2] : "benchmarks/results/packet-websearch.csv");
        int parallelism = args.length > 3
                ? Integer.parseInt(args[3])
                : Runtime.getRuntime().availableProcessors();
        Topology topology = TopologyParser.read(topologyFile);
        PacketEvaluator evaluator = new PacketEvaluator(
                new PacketSettings(Optional.of(topology), simulator, 1000, Duration.ofHours(1), parallelism));
        List<String> servers = servers();
        ClusterState idle = new ClusterState(java.util.Map.of());

        List<double[]> single = new ArrayList<>();
        double worst = 0;
        double best = Double.POSITIVE_INFINITY;
        String worstPair = "";
        String bestPair = "";
        Files.createDirectories(csv.toAbsolutePath().getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println("agg1,agg2,placement,predicted_delay_s");
            for (String agg1 : CANDIDATES) {
                for (String agg2 : CANDIDATES) {
                    String query = "shared AGG1 = (" + agg1 + ")\nshared AGG2 = (" + agg2 + ")\n" + flows(servers);
                    double seconds = evaluator
                            .evaluate(new QueryModel(new QueryParser().parse(query)), idle)
                            .completionSeconds()
                            .getAsDouble();
                    String kind = agg1.equals(agg2) ? "single" : "two-level";
                    out.printf(Locale.ROOT, "%s,%s,%s,%.6f%n", agg1, agg2, kind, seconds);
                    if (agg1.equals(agg2)) {
                        single.add(new double[] {seconds});
                    } else {
                        if (seconds > worst) {
                            worst = seconds;
                            worstPair = agg1 + " + " + agg2;
                        }
                        if (seconds < best) {
                            best = seconds;
                            bestPair = agg1 + " + " + agg2;
                        }
                    }
                }
            }
        }
        double singleBest = single.stream().mapToDouble(s -> s[0]).min().orElseThrow();
        double singleWorst = single.stream().mapToDouble(s -> s[0]).max().orElseThrow();

        String full = "shared AGG1 = AGG2 = (" + String.join(" ", CANDIDATES) + ")\n" + flows(servers);
        QueryModel model = new QueryModel(new QueryParser().parse(full));
        long start = System.nanoTime();
        Evaluation pick = evaluator.evaluate(model, idle);
        double elapsed = (System.nanoTime() - start) / 1e9;

        System.out.printf(
                Locale.ROOT,
                "single aggregator: %.3f s (best of 10 hosts) .. %.3f s (worst)   paper 1.04 s%n",
                singleBest,
                singleWorst);
        System.out.printf(Locale.ROOT, "two-level worst:   %.3f s (%s)   paper 0.55 s%n", worst, worstPair);
        System.out.printf(Locale.ROOT, "two-level best:    %.3f s (%s)   paper 0.40 s%n", best, bestPair);
        System.out.printf(
                Locale.ROOT,
                "evaluator pick:    AGG1=%s AGG2=%s, %.3f s (%s)%n",
                pick.binding().valueOf("AGG1"),
                pick.binding().valueOf("AGG2"),
                pick.completionSeconds().getAsDouble(),
                pick.completionSeconds().getAsDouble() == Math.min(best, singleBest)
                        ? "the best placement"
                        : "NOT the best");
        System.out.printf(
                Locale.ROOT,
                "evaluating all 100 placements: %.2f s wall, %d simulations at once%s%n",
                elapsed,
                parallelism,
                pick.notes().isEmpty() ? "" : " " + pick.notes());
        System.out.printf(
                Locale.ROOT,
                "ordering single > worst > best: %s%n",
                singleBest > worst && worst > best ? "reproduced" : "NOT reproduced");
    }

    /** The 100 index servers, nearest AGG1's preferred rack first: 50 for AGG1, then 50 for AGG2 (§5.4). */
    static List<String> servers() {
        List<String> servers = new ArrayList<>();
        range(servers, "10.1.1.", 20); // AGG1's group: 20 in rack p1r1, 15 elsewhere in pod p1, 15 in pod p4
        range(servers, "10.1.2.", 15);
        range(servers, "10.4.1.", 15);
        range(servers, "10.2.1.", 14); // AGG2's group: 14 in rack p2r1, 10 elsewhere in pod p2, 26 in pods p5, p6
        range(servers, "10.2.2.", 10);
        range(servers, "10.5.1.", 18);
        range(servers, "10.6.1.", 8);
        return servers;
    }

    private static void range(List<String> servers, String prefix, int count) {
        for (int i = 1; i <= count; i++) {
            servers.add(prefix + i);
        }
    }

    /** The paper's query: srv_i -> AGG size 10KB, then AGG -> frontend with what arrived (transfer t(f_ia)). */
    static String flows(List<String> servers) {
        StringBuilder flows = new StringBuilder();
        for (int i = 0; i < servers.size(); i++) {
            String aggregator = i < servers.size() / 2 ? "AGG1" : "AGG2";
            int n = i + 1;
            flows.append("f")
                    .append(n)
                    .append("a ")
                    .append(servers.get(i))
                    .append(" -> ")
                    .append(aggregator)
                    .append(" size 10KB\n");
            flows.append("f")
                    .append(n)
                    .append("b ")
                    .append(aggregator)
                    .append(" -> ")
                    .append(FRONTEND)
                    .append(" size sz(f")
                    .append(n)
                    .append("a) transfer t(f")
                    .append(n)
                    .append("a)\n");
        }
        return flows.toString();
    }
}
