package org.cloudtalk.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.cloudtalk.server.eval.packet.PacketSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cloudtalk place-aggregators} end to end: real topology file, real ns-3 helper where the build made it. */
class PlaceAggregatorsTest {
    private static final Path TOPOLOGY = Path.of("../examples/topology/two-pods.topo");

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = PlaceAggregators.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Eight servers in rack r1 (pod p1), then eight in rack r3 (pod p2). */
    private Path servers() throws Exception {
        List<String> lines = new ArrayList<>(List.of("# r1, then r3"));
        for (int i = 1; i <= 8; i++) {
            lines.add("10.0.0." + i);
        }
        for (int i = 1; i <= 8; i++) {
            lines.add("10.1.1." + i + "  # pod p2");
        }
        return Files.write(dir.resolve("servers.txt"), lines);
    }

    @Test
    void simulatesEveryPlacementAndChoosesTheFastestWithTheSolrConfiguration() throws Exception {
        assumeTrue(
                Files.isExecutable(PacketSimulator.defaultExecutable()),
                "ns-3 is not installed, so the build made no packet-sim helper (bin/install-ns3)");
        Path csv = dir.resolve("placements.csv");

        Run run = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                servers().toString(),
                "--candidates",
                "10.0.0.12,10.1.1.12",
                "--frontend",
                "10.0.0.9",
                "--solr-port",
                "8983",
                "--csv",
                csv.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
        // Two candidates for two aggregators that may coincide: 4 placements, each simulated.
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows.get(0)).isEqualTo("AGG1,AGG2,predicted_delay_s");
        assertThat(rows).hasSize(5);
        double fastest = rows.stream()
                .skip(1)
                .mapToDouble(row -> Double.parseDouble(row.substring(row.lastIndexOf(',') + 1)))
                .min()
                .orElseThrow();
        String chosen = run.out()
                .lines()
                .filter(line -> line.startsWith("chosen:"))
                .findFirst()
                .orElseThrow();
        assertThat(Double.parseDouble(chosen.split("\\s+")[1]))
                .isEqualTo(fastest, org.assertj.core.api.Assertions.within(0.0005));
        assertThat(run.out())
                .contains("single aggregator, best:", "distinct hosts, worst:", "distinct hosts, best:")
                .contains("AGG1 = ", "AGG2 = ")
                .contains("-Dsolr.node.roles=coordinator:on", "_solr\"");
    }

    @Test
    void wrongInputsSayWhatIsWrongWithTheirOwnExitCodes() throws Exception {
        Path servers = servers();
        Path bad = Files.write(dir.resolve("bad.txt"), List.of("10.0.0.1", "# ok", "db-7.example"));

        Run badLine = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                bad.toString(),
                "--candidates",
                "10.0.0.12",
                "--frontend",
                "10.0.0.9");
        Run missing = run(
                "--topology",
                dir.resolve("nope.topo").toString(),
                "--servers",
                servers.toString(),
                "--candidates",
                "10.0.0.12",
                "--frontend",
                "10.0.0.9");
        Run badShape = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                servers.toString(),
                "--candidates",
                "10.0.0.12",
                "--frontend",
                "10.0.0.9",
                "--shape",
                "star");
        Run badHost = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                servers.toString(),
                "--candidates",
                "10.0.0.300",
                "--frontend",
                "10.0.0.9");
        Run tooMany = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                servers.toString(),
                "--candidates",
                "10.0.0.12,10.1.1.12,10.0.0.13",
                "--frontend",
                "10.0.0.9",
                "-k",
                "2",
                "--max-placements",
                "5");
        Run noCandidates =
                run("--topology", TOPOLOGY.toString(), "--servers", servers.toString(), "--frontend", "10.0.0.9");

        assertThat(badLine.exit()).isEqualTo(2);
        assertThat(badLine.err()).contains("bad.txt: line 3: 'db-7.example'");
        assertThat(missing.exit()).isEqualTo(66);
        assertThat(missing.err()).contains("cannot read").contains("nope.topo");
        assertThat(badShape.exit()).isEqualTo(64);
        assertThat(badShape.err()).contains("Invalid value star for --shape");
        assertThat(badHost.exit()).isEqualTo(64);
        assertThat(badHost.err()).contains("Invalid value 10.0.0.300 for --candidates");
        assertThat(tooMany.exit()).isEqualTo(2);
        assertThat(tooMany.err()).contains("more than 5 placements");
        assertThat(noCandidates.exit()).isEqualTo(64);
        assertThat(Stream.of(badLine, missing, badShape, badHost, tooMany, noCandidates)
                        .map(Run::err))
                .noneMatch(err -> err.contains("Exception") || err.contains("\tat "));
    }

    @Test
    void inputsFoundWrongByAProbeAreClearErrorsToo() throws Exception {
        Path servers = servers();
        Path latin =
                Files.write(dir.resolve("latin.txt"), "10.0.0.1\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Path topology = Files.writeString(
                dir.resolve("huge-buffer.topo"),
                "tier host rate 1Gbps latency 1us buffer 4194305KB\nrack r1 10.0.0.1-10.0.0.20\n");
        Path notAProgram = Files.createDirectory(dir.resolve("sim"));
        String[] common = {"--topology", TOPOLOGY.toString(), "--servers", servers.toString()};

        Run unknownFrontend = run(concat(common, "--candidates", "10.0.0.12", "--frontend", "0.0.0.0"));
        Run csvInADirectoryThatIsNot = run(
                concat(common, "--candidates", "10.0.0.12", "--frontend", "10.0.0.9", "--csv", "/nonexistent/x.csv"));
        Run notUtf8 = run(concat(
                new String[] {"--topology", TOPOLOGY.toString(), "--servers", latin.toString()},
                "--candidates",
                "10.0.0.12",
                "--frontend",
                "10.0.0.9"));
        Run badTopology = run(
                "--topology",
                topology.toString(),
                "--servers",
                servers.toString(),
                "--candidates",
                "10.0.0.12",
                "--frontend",
                "10.0.0.9");
        Run simulatorIsADirectory = run(concat(
                common, "--candidates", "10.0.0.12", "--frontend", "10.0.0.9", "--simulator", notAProgram.toString()));
        Run twiceInline = run(concat(common, "--candidates", "10.0.0.12,::ffff:10.0.0.12", "--frontend", "10.0.0.9"));
        Run aThousandAggregators = run(concat(
                common,
                "--candidates",
                "10.0.0.12,10.1.1.12",
                "--frontend",
                "10.0.0.9",
                "--shape",
                "every",
                "-k",
                "1000",
                "--max-placements",
                "1"));

        assertThat(unknownFrontend.exit()).isEqualTo(64);
        assertThat(unknownFrontend.err()).contains("0.0.0.0 (the unknown host) cannot be");
        assertThat(csvInADirectoryThatIsNot.exit()).isEqualTo(64);
        assertThat(csvInADirectoryThatIsNot.err()).contains("Invalid value /nonexistent/x.csv for --csv");
        assertThat(notUtf8.exit()).isEqualTo(2);
        assertThat(notUtf8.err()).contains("latin.txt: line 2: not valid UTF-8 text");
        assertThat(badTopology.exit()).isEqualTo(2);
        assertThat(badTopology.err()).contains("huge-buffer.topo: line 1: invalid buffer '4194305KB': at most 1GB");
        assertThat(simulatorIsADirectory.exit()).isEqualTo(4);
        assertThat(twiceInline.exit()).isEqualTo(64);
        assertThat(twiceInline.err())
                .contains("Invalid value ::ffff:10.0.0.12 for --candidates: the same host is listed twice");
        // Refused before any query text is built (a million of them had run the tool out of memory).
        assertThat(aThousandAggregators.exit()).isEqualTo(64);
        assertThat(aThousandAggregators.err())
                .contains("the number of aggregators must be between 1 and 100 (a query's variables), not 1000");
        assertThat(Stream.of(
                                unknownFrontend,
                                csvInADirectoryThatIsNot,
                                notUtf8,
                                badTopology,
                                simulatorIsADirectory,
                                twiceInline,
                                aThousandAggregators)
                        .map(Run::err))
                .noneMatch(err -> err.contains("Exception") || err.contains("\tat "));
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }

    /** The tool's budget is its --budget-s: its messages name that, not the server's setting. */
    @Test
    void aBudgetThatRunsOutNamesTheFlagToRaise() throws Exception {
        Path slow = dir.resolve("slow-sim");
        Files.writeString(slow, "#!/bin/sh\ncat >/dev/null\nsleep 5\n");
        assertThat(slow.toFile().setExecutable(true)).isTrue();

        Run run = run(
                "--topology",
                TOPOLOGY.toString(),
                "--servers",
                servers().toString(),
                "--candidates",
                "10.0.0.12,10.1.1.12",
                "--frontend",
                "10.0.0.9",
                "--simulator",
                slow.toString(),
                "--budget-s",
                "1");

        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("within its budget of 1000 ms; raise --budget-s");
    }

    @Test
    void delaysReadInMillisecondsBelowTenOfThem() {
        assertThat(PlaceAggregators.delay(0.000_412_4)).isEqualTo("0.412 ms");
        assertThat(PlaceAggregators.delay(0.009_999)).isEqualTo("9.999 ms");
        assertThat(PlaceAggregators.delay(0.803)).isEqualTo("0.803 s");
        assertThat(PlaceAggregators.delay(Double.POSITIVE_INFINITY)).isEqualTo("never");
    }

    @Test
    void helpListsTheOptionsAndExitsZero() {
        Run help = run("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--topology", "--servers", "--candidates", "--shape", "--solr-port");
    }
}
