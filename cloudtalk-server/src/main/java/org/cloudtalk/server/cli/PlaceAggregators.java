package org.cloudtalk.server.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.aggregators.AggregatorQuery;
import org.cloudtalk.server.aggregators.HostsFile;
import org.cloudtalk.server.aggregators.HostsFile.HostsFileException;
import org.cloudtalk.server.aggregators.PlacementReport;
import org.cloudtalk.server.aggregators.PlacementReport.Placement;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.eval.BindingEnumerator;
import org.cloudtalk.server.eval.EvaluationException;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.packet.PacketEvaluator;
import org.cloudtalk.server.eval.packet.PacketSettings;
import org.cloudtalk.server.eval.packet.PacketSimulator;
import org.cloudtalk.server.eval.packet.SimulatorUnavailableException;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyException;
import org.cloudtalk.server.topology.TopologyParser;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cloudtalk place-aggregators}: where to put k aggregators of a scatter-gather service (§5.4), decided before
 * the service starts with the packet evaluator over a static topology. Prints every alternative's predicted query delay
 * (single aggregator, worst and best placement) and, for SolrCloud, the configuration that applies the choice.
 */
@Command(
        name = "place-aggregators",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        sortOptions = false,
        description = {
            "Simulates every placement of k aggregators over the candidate hosts (ns-3, static topology) and prints the"
                    + " predicted query delay of a single aggregator, the worst and the best placement.",
            "The servers' file lists one address per line ('#' comments), nearest each other first."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:placed",
            "2:an input file's content is wrong (the message says where) or no placement can finish",
            "4:the packet simulator is not available (bin/install-ns3, then rebuild)",
            "64:wrong command line",
            "66:an input file cannot be read",
            "73:the --csv file cannot be written"
        })
public final class PlaceAggregators implements Callable<Integer> {
    /** Each placement is one ns-3 run of ~0.2 s of CPU: a million would take days, so refuse early. */
    private static final int MAX_PLACEMENTS = 100_000;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "the topology (docs/topology.md)")
    private Path topologyFile;

    @Option(names = "--servers", required = true, paramLabel = "FILE", description = "the servers, one per line")
    private Path serversFile;

    @ArgGroup(multiplicity = "1")
    private Candidates candidates;

    @Option(names = "--frontend", required = true, paramLabel = "HOST", description = "where answers go")
    private String frontend;

    @Option(
            names = {"-k", "--aggregators"},
            paramLabel = "K",
            defaultValue = "2",
            description = "how many aggregators (default: ${DEFAULT-VALUE})")
    private int aggregators;

    @Option(
            names = "--shape",
            paramLabel = "S",
            defaultValue = "split",
            description = "split: the servers, in file order, split into k groups, one per aggregator (§5.4); every:"
                    + " each aggregator gathers from every server, k queries at once (SolrCloud coordinators)"
                    + " (default: ${DEFAULT-VALUE})")
    private String shape;

    @Option(
            names = "--response-size",
            paramLabel = "SIZE",
            defaultValue = "10KB",
            description =
                    "what each server sends per query: bytes, or with B, KB, MB (binary) (default: ${DEFAULT-VALUE})")
    private String responseSize;

    @Option(
            names = "--solr-port",
            paramLabel = "PORT",
            description = "also print the SolrCloud configuration for the chosen hosts, whose Solr listens on PORT")
    private Integer solrPort;

    @Option(
            names = "--max-placements",
            paramLabel = "N",
            defaultValue = "1000",
            description = "refuse to simulate more placements than this (default: ${DEFAULT-VALUE})")
    private int maxPlacements;

    @Option(
            names = "--budget-s",
            paramLabel = "S",
            defaultValue = "600",
            description = "stop simulating after S seconds and report what was simulated (default: ${DEFAULT-VALUE})")
    private long budgetSeconds;

    @Option(names = "--parallelism", paramLabel = "N", description = "simulations at once (default: one per core)")
    private Integer parallelism;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write every placement and its delay as CSV")
    private Path csv;

    @Option(
            names = "--simulator",
            paramLabel = "PATH",
            description = "the packet-sim helper (default: the one the server module's build made)")
    private Path simulator;

    @Spec
    private CommandSpec spec;

    private final PrintStream out;

    static final class Candidates {
        @Option(
                names = "--candidates",
                split = ",",
                paramLabel = "HOST",
                description = "the hosts an aggregator may go on, comma-separated")
        List<String> hosts;

        @Option(names = "--candidates-file", paramLabel = "FILE", description = "the candidate hosts, one per line")
        Path file;
    }

    private PlaceAggregators(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine line = Launchers.commandLine(new PlaceAggregators(out))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Override
    public Integer call() throws IOException {
        AggregatorQuery.Shape chosenShape = shape();
        long bytes = size(responseSize, "--response-size");
        positive(aggregators, "--aggregators");
        positive(maxPlacements, "--max-placements");
        if (maxPlacements > MAX_PLACEMENTS) {
            throw usage("Invalid value " + maxPlacements + " for --max-placements: at most " + MAX_PLACEMENTS);
        }
        positive(budgetSeconds, "--budget-s");
        if (parallelism != null) {
            positive(parallelism, "--parallelism");
        }
        if (solrPort != null && (solrPort < 1 || solrPort > 65535)) {
            throw usage("Invalid value " + solrPort + " for --solr-port: must be a port number (1-65535)");
        }
        Address frontendHost = address(frontend, "--frontend");
        if (csv != null && !writable(csv)) {
            // Checked before the simulations, which may take minutes.
            throw usage("Invalid value " + csv + " for --csv: cannot write a file there");
        }
        Topology topology;
        List<Address> servers;
        List<Address> candidateHosts;
        try {
            topology = TopologyParser.read(readable(topologyFile));
            servers = hosts(serversFile);
            candidateHosts = candidates.file != null ? hosts(candidates.file) : commandLineCandidates();
        } catch (NoInput e) {
            spec.commandLine().getErr().println("place-aggregators: " + e.getMessage());
            return Launchers.NO_INPUT;
        } catch (TopologyException e) {
            spec.commandLine().getErr().println("place-aggregators: " + topologyFile + ": " + e.getMessage());
            return Launchers.QUERY_ERROR;
        } catch (HostsFileException e) {
            spec.commandLine().getErr().println("place-aggregators: " + e.getMessage());
            return Launchers.QUERY_ERROR;
        }
        AggregatorQuery query;
        try {
            query = new AggregatorQuery(servers, candidateHosts, frontendHost, aggregators, bytes, chosenShape);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        PacketSettings settings = new PacketSettings(
                Optional.of(topology),
                simulator != null ? simulator : PacketSimulator.defaultExecutable(),
                maxPlacements,
                Duration.ofSeconds(budgetSeconds),
                parallelism != null ? parallelism : Runtime.getRuntime().availableProcessors(),
                "--budget-s");
        QueryModel model;
        try {
            model = new QueryModel(new QueryParser().parse(query.text()));
        } catch (QueryException e) {
            // The inputs were checked one by one; what is left is the query's size (servers x aggregators flows).
            spec.commandLine()
                    .getErr()
                    .println("place-aggregators: " + query.servers().size() + " servers and " + query.aggregators()
                            + " aggregators make a query CloudTalk does not take: "
                            + e.errors().get(0).message());
            return Launchers.QUERY_ERROR;
        }
        if (new BindingEnumerator(model).first(maxPlacements + 1).size() > maxPlacements) {
            spec.commandLine()
                    .getErr()
                    .println("place-aggregators: more than " + maxPlacements + " placements (--max-placements);"
                            + " give fewer candidates or aggregators, or raise the limit");
            return Launchers.QUERY_ERROR;
        }
        PacketEvaluator evaluator = new PacketEvaluator(settings);
        long started = System.nanoTime();
        PacketEvaluator.Simulations simulations;
        try {
            simulations = evaluator.simulateAll(model, Deadline.none());
        } catch (SimulatorUnavailableException e) {
            spec.commandLine().getErr().println("place-aggregators: " + e.getMessage());
            return Launchers.UNAVAILABLE;
        } catch (EvaluationException e) {
            spec.commandLine().getErr().println("place-aggregators: " + e.getMessage());
            return Launchers.QUERY_ERROR;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        PlacementReport report = PlacementReport.of(query, simulations.simulated());
        if (Double.isInfinite(report.chosen().seconds())) {
            spec.commandLine()
                    .getErr()
                    .println("place-aggregators: no placement lets every answer arrive within the simulated "
                            + PacketSimulator.HORIZON_SECONDS + " s");
            return Launchers.QUERY_ERROR;
        }
        print(query, report, simulations, seconds);
        if (csv != null) {
            try {
                writeCsv(query, simulations);
            } catch (IOException e) {
                spec.commandLine().getErr().println("place-aggregators: cannot write " + csv + ": " + e);
                return Launchers.CANNOT_CREATE;
            }
        }
        return 0;
    }

    private void print(
            AggregatorQuery query, PlacementReport report, PacketEvaluator.Simulations simulations, double s) {
        out.printf(
                Locale.ROOT,
                "%d aggregator%s for %d servers (%s shape), %d placement%s simulated in %.1f s%n",
                query.aggregators(),
                query.aggregators() == 1 ? "" : "s",
                query.servers().size(),
                query.shape().name().toLowerCase(Locale.ROOT),
                report.simulated(),
                report.simulated() == 1 ? "" : "s",
                s);
        simulations.notes().forEach(note -> out.println("# " + note));
        line("single aggregator, best", report.bestSingle());
        line("single aggregator, worst", report.worstSingle());
        if (query.aggregators() > 1) {
            line("distinct hosts, worst", report.worstSpread());
            line("distinct hosts, best", report.bestSpread());
        }
        line("chosen", Optional.of(report.chosen()));
        List<String> variables = report.variables();
        for (int v = 0; v < variables.size(); v++) {
            out.println(variables.get(v) + " = " + report.chosen().hosts().get(v));
        }
        if (solrPort != null) {
            List<String> hosts = report.chosen().hosts().stream().distinct().toList();
            out.println();
            out.println("# SolrCloud: start Solr on " + String.join(", ", hosts) + " as query coordinators");
            out.println("SOLR_OPTS=\"$SOLR_OPTS -Dsolr.node.roles=coordinator:on\"");
            out.println("# SolrJ clients: send queries to those nodes");
            out.println("request.setPreferredNodes(List.of("
                    + hosts.stream().map(h -> "\"" + nodeName(h) + "\"").collect(Collectors.joining(", "))
                    + "));");
        }
    }

    private void line(String label, Optional<Placement> placement) {
        placement.ifPresent(p -> out.printf(
                Locale.ROOT, "%-26s %s  %s%n", label + ":", delay(p.seconds()), String.join(" ", p.hosts())));
    }

    /** A predicted delay as a person reads it: a small topology's delays are fractions of a millisecond. */
    static String delay(double seconds) {
        if (Double.isInfinite(seconds)) {
            return "never";
        }
        return seconds < 0.01
                ? String.format(Locale.ROOT, "%.3f ms", seconds * 1e3)
                : String.format(Locale.ROOT, "%.3f s", seconds);
    }

    /** Solr's node name for a host: {@code host:port_solr} (IPv6 in brackets). */
    private String nodeName(String host) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + solrPort + "_solr";
    }

    private void writeCsv(AggregatorQuery query, PacketEvaluator.Simulations simulations) throws IOException {
        List<String> rows = new ArrayList<>();
        rows.add(String.join(",", query.variables()) + ",predicted_delay_s");
        for (PacketEvaluator.Simulated one : simulations.simulated()) {
            StringBuilder row = new StringBuilder();
            for (String variable : query.variables()) {
                row.append(one.binding().valueOf(variable)).append(',');
            }
            row.append(Double.isInfinite(one.seconds()) ? "" : String.format(Locale.ROOT, "%.6f", one.seconds()));
            rows.add(row.toString());
        }
        Files.write(csv, rows);
    }

    private AggregatorQuery.Shape shape() {
        try {
            return AggregatorQuery.Shape.valueOf(shape.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw usage("Invalid value " + shape + " for --shape: expected split or every");
        }
    }

    private List<Address> commandLineCandidates() {
        List<Address> hosts = new ArrayList<>();
        for (String host : candidates.hosts) {
            Address address = address(host.strip(), "--candidates");
            if (hosts.contains(address)) { // as in a candidates file: a host listed twice is a slip in the list
                throw usage("Invalid value " + host.strip() + " for --candidates: the same host is listed twice");
            }
            hosts.add(address);
        }
        return hosts;
    }

    private Address address(String text, String option) {
        try {
            return Address.parse(text);
        } catch (IllegalArgumentException e) {
            throw usage("Invalid value " + text + " for " + option + ": " + e.getMessage());
        }
    }

    private void positive(long value, String option) {
        if (value < 1) {
            throw usage("Invalid value " + value + " for " + option + ": must be positive");
        }
    }

    private long size(String text, String option) {
        String digits = text.replaceAll("(?i)(KB|MB|B)$", "");
        String unit = text.substring(digits.length()).toUpperCase(Locale.ROOT);
        long multiplier =
                switch (unit) {
                    case "KB" -> 1024;
                    case "MB" -> 1024 * 1024;
                    default -> 1;
                };
        try {
            long value = Math.multiplyExact(Long.parseLong(digits), multiplier);
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw usage("Invalid value " + text + " for " + option + ": expected a positive size like 10KB");
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Whether {@code file} can be written: an existing writable file, or a new one in a writable directory. */
    private static boolean writable(Path file) {
        if (Files.exists(file)) {
            return Files.isRegularFile(file) && Files.isWritable(file);
        }
        Path directory = file.toAbsolutePath().getParent();
        return directory != null && Files.isDirectory(directory) && Files.isWritable(directory);
    }

    private static Path readable(Path file) throws NoInput {
        if (!Files.isReadable(file) || Files.isDirectory(file)) {
            throw new NoInput("cannot read " + file);
        }
        return file;
    }

    private static List<Address> hosts(Path file) throws NoInput, HostsFileException {
        try {
            return HostsFile.read(readable(file));
        } catch (IOException e) {
            throw new NoInput("cannot read " + file + " (" + e.getMessage() + ")");
        }
    }

    private static final class NoInput extends Exception {
        NoInput(String message) {
            super(message);
        }
    }
}
