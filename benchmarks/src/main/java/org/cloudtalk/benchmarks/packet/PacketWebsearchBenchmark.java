package org.cloudtalk.benchmarks.packet;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.cloudtalk.benchmarks.BenchArgs;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.aggregators.AggregatorQuery;
import org.cloudtalk.server.aggregators.HostsFile;
import org.cloudtalk.server.aggregators.PlacementReport;
import org.cloudtalk.server.aggregators.PlacementReport.Placement;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.packet.PacketEvaluator;
import org.cloudtalk.server.eval.packet.PacketSettings;
import org.cloudtalk.server.topology.TopologyParser;

/**
 * §5.4 of the paper: where to put web search's two aggregators. The 100 index servers of examples/websearch send 10 KB
 * each to their aggregator (the first 50 to AGG1, the others to AGG2), which forwards each answer to the frontend; the
 * aggregators may go on 10 hosts in different racks, and may coincide (a single aggregator). Every placement is
 * simulated with the packet evaluator on the VL2-like 1,200-server topology of examples/topology/vl2-1200.topo with
 * 50-packet port buffers, in one timed search, as {@code bin/cloudtalk place-aggregators} runs it.
 */
public final class PacketWebsearchBenchmark {
    private static final Address FRONTEND = Address.parse("10.3.1.1");

    private PacketWebsearchBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path topologyFile = Path.of(args.length > 0 ? args[0] : "examples/topology/vl2-1200.topo");
        Path simulator = Path.of(args.length > 1 ? args[1] : "cloudtalk-server/target/native/packet-sim");
        Path csv = Path.of(args.length > 2 ? args[2] : "benchmarks/results/packet-websearch.csv");
        int parallelism =
                BenchArgs.count(args, 3, "PARALLELISM", Runtime.getRuntime().availableProcessors());
        PacketEvaluator evaluator = new PacketEvaluator(new PacketSettings(
                Optional.of(TopologyParser.read(topologyFile)), simulator, 1000, Duration.ofHours(1), parallelism));
        AggregatorQuery query = new AggregatorQuery(
                HostsFile.read(Path.of("examples/websearch/servers.txt")),
                HostsFile.read(Path.of("examples/websearch/candidates.txt")),
                FRONTEND,
                2,
                10 * 1024,
                AggregatorQuery.Shape.SPLIT);

        long start = System.nanoTime();
        PacketEvaluator.Simulations simulations =
                evaluator.simulateAll(new QueryModel(new QueryParser().parse(query.text())), Deadline.none());
        double elapsed = (System.nanoTime() - start) / 1e9;
        PlacementReport report = PlacementReport.of(query, simulations.simulated());

        Files.createDirectories(csv.toAbsolutePath().getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println("agg1,agg2,placement,predicted_delay_s");
            for (PacketEvaluator.Simulated one : simulations.simulated()) {
                String agg1 = one.binding().valueOf("AGG1");
                String agg2 = one.binding().valueOf("AGG2");
                out.printf(
                        Locale.ROOT,
                        "%s,%s,%s,%.6f%n",
                        agg1,
                        agg2,
                        agg1.equals(agg2) ? "single" : "two-level",
                        one.seconds());
            }
        }
        Placement singleBest = report.bestSingle().orElseThrow();
        Placement singleWorst = report.worstSingle().orElseThrow();
        Placement worst = report.worstSpread().orElseThrow();
        Placement best = report.bestSpread().orElseThrow();
        System.out.printf(
                Locale.ROOT,
                "single aggregator: %.3f s (best of 10 hosts) .. %.3f s (worst)   paper 1.04 s%n",
                singleBest.seconds(),
                singleWorst.seconds());
        System.out.printf(
                Locale.ROOT, "two-level worst:   %.3f s (%s)   paper 0.55 s%n", worst.seconds(), worst.hosts());
        System.out.printf(Locale.ROOT, "two-level best:    %.3f s (%s)   paper 0.40 s%n", best.seconds(), best.hosts());
        System.out.printf(
                Locale.ROOT,
                "evaluator pick:    %s, %.3f s (%s)%n",
                report.chosen().hosts(),
                report.chosen().seconds(),
                report.chosen().equals(best) ? "the best two-level placement" : "a single aggregator");
        System.out.printf(
                Locale.ROOT,
                "evaluating all %d placements: %.2f s wall, %d simulations at once%s%n",
                report.simulated(),
                elapsed,
                parallelism,
                simulations.notes().isEmpty() ? "" : " " + simulations.notes());
        System.out.printf(
                Locale.ROOT,
                "ordering single > worst > best: %s%n",
                singleBest.seconds() > worst.seconds() && worst.seconds() > best.seconds()
                        ? "reproduced"
                        : "NOT reproduced");
    }
}
