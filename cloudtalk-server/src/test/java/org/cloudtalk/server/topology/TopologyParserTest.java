package org.cloudtalk.server.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TopologyParserTest {
    private static final String TIERS =
            """
            tier host rate 1Gbps latency 10us buffer 50pkt
            tier rack oversubscription 4 latency 10us buffer 50pkt
            tier pod rate 10Gbps latency 20us buffer 256KB
            """;

    @Test
    void readsTiersRacksAndRanges() throws TopologyException {
        Topology topology = TopologyParser.parse(
                TIERS
                        + """
                # two racks in one pod
                rack r1 pod p1 10.0.0.1-10.0.0.4   # a range
                rack r2 pod p1 10.0.1.1 10.0.1.2 2001:DB8::1
                """);

        assertThat(topology.hostRate()).isEqualTo(125_000_000.0);
        assertThat(topology.host().latencySeconds()).isCloseTo(10e-6, within(1e-12));
        assertThat(topology.host().buffer()).isEqualTo(new Topology.Buffer(50, true));
        assertThat(topology.pod().buffer()).isEqualTo(new Topology.Buffer(256 * 1024, false));
        assertThat(topology.racks()).hasSize(2);
        assertThat(topology.racks().get(0).hosts()).containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4");
        assertThat(topology.rackOf("2001:db8::1")).map(Topology.Rack::name).contains("r2");
        assertThat(topology.rackOf("10.9.9.9")).isEmpty();
        // 4 hosts of 1 Gbps over 4:1 oversubscription; the pod tier has a fixed rate.
        assertThat(topology.rackUplinkRate(topology.racks().get(0))).isEqualTo(125_000_000.0);
        assertThat(topology.podUplinkRate("p1")).isEqualTo(1_250_000_000.0);
    }

    @Test
    void linesMayEndInCrLfOrALoneCr() throws TopologyException {
        String text = TIERS + "# a comment\nrack r1 pod p1 10.0.0.1-10.0.0.4\n";
        Topology lf = TopologyParser.parse(text);

        for (String ending : new String[] {"\r\n", "\r"}) {
            Topology other = TopologyParser.parse(text.replace("\n", ending));
            assertThat(other.racks()).isEqualTo(lf.racks());
            assertThat(other.host()).isEqualTo(lf.host());
            assertThatThrownBy(() -> TopologyParser.parse(text.replace("\n", ending) + "rack r2" + ending))
                    .isInstanceOf(TopologyException.class)
                    .hasMessageStartingWith("line 6:");
        }
    }

    @Test
    void podOversubscriptionDividesItsRacksUplinks() throws TopologyException {
        Topology topology = TopologyParser.parse(
                """
                tier host rate 1Gbps latency 1us buffer 10pkt
                tier rack rate 2Gbps latency 1us buffer 10pkt
                tier pod oversubscription 2 latency 1us buffer 10pkt
                rack a pod p 10.0.0.1
                rack b pod p 10.0.0.2
                rack c pod q 10.0.0.3
                """);
        assertThat(topology.podUplinkRate("p")).isEqualTo(250_000_000.0);
        assertThat(topology.podUplinkRate("q")).isEqualTo(125_000_000.0);
    }

    static Stream<Arguments> badInputs() {
        String rack = "rack r1 pod p1 10.0.0.1\n";
        return Stream.of(
                Arguments.of(TIERS + "switch s1\n", "line 4: unknown statement 'switch'; expected 'tier' or 'rack'"),
                Arguments.of("tier\n", "line 1: 'tier' needs a name: host, rack or pod"),
                Arguments.of("tier core rate 1Gbps\n", "line 1: unknown tier 'core'; expected host, rack or pod"),
                Arguments.of(
                        TIERS + "tier pod rate 1Gbps latency 1us buffer 1pkt\n", "line 4: tier pod is defined twice"),
                Arguments.of(
                        "tier host rate 1Gbps speed 3\n",
                        "line 1: unknown tier attribute 'speed'; expected rate, oversubscription, latency or buffer"),
                Arguments.of("tier host rate\n", "line 1: 'rate' needs a value"),
                Arguments.of("tier host rate 1Gbps rate 2Gbps\n", "line 1: 'rate' is given twice"),
                Arguments.of("tier host rate 1Gbps buffer 5pkt\n", "line 1: tier host needs 'latency'"),
                Arguments.of(
                        "tier host oversubscription 2 latency 1us buffer 5pkt\n",
                        "line 1: tier host needs 'rate' (oversubscription applies to the rack and pod tiers)"),
                Arguments.of(
                        "tier rack rate 1Gbps oversubscription 2 latency 1us buffer 5pkt\n",
                        "line 1: tier rack needs exactly one of 'rate' and 'oversubscription'"),
                Arguments.of(
                        "tier host rate 1GB latency 1us buffer 5pkt\n",
                        "line 1: invalid rate '1GB': expected a positive number with a unit, like 10Gbps"),
                Arguments.of(
                        "tier host rate 0Gbps latency 1us buffer 5pkt\n",
                        "line 1: invalid rate '0Gbps': expected a positive number with a unit, like 10Gbps"),
                Arguments.of(
                        "\n\ntier host rate 1Gbps latency 10 buffer 5pkt\n",
                        "line 3: invalid latency '10': expected a positive number with a unit, like 10us"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 0pkt\n",
                        "line 1: invalid buffer '0pkt': expected packets like 50pkt or bytes like 64KB"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 64\n",
                        "line 1: invalid buffer '64': expected packets like 50pkt or bytes like 64KB"),
                Arguments.of(
                        "tier rack oversubscription 0.5 latency 1us buffer 5pkt\n",
                        "line 1: invalid oversubscription '0.5': expected a number from 1 to 1000, like 4"),
                Arguments.of(
                        "tier rack oversubscription Infinity latency 1us buffer 5pkt\n",
                        "line 1: invalid oversubscription 'Infinity': expected a number from 1 to 1000, like 4"),
                Arguments.of(
                        "tier rack oversubscription 1e300 latency 1us buffer 5pkt\n",
                        "line 1: invalid oversubscription '1e300': expected a number from 1 to 1000, like 4"),
                // Beyond these the packet simulator's numbers overflow (a 4 GiB buffer wrapped around to nothing).
                Arguments.of(
                        "tier host rate 99999999Tbps latency 1us buffer 5pkt\n",
                        "line 1: invalid rate '99999999Tbps': at most 1000Tbps"),
                Arguments.of(
                        "tier host rate 1Gbps latency 100000000000s buffer 5pkt\n",
                        "line 1: invalid latency '100000000000s': at most 60s"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 4194305KB\n",
                        "line 1: invalid buffer '4194305KB': at most 1GB"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 1000000000pkt\n",
                        "line 1: invalid buffer '1000000000pkt': at most 999999999pkt"),
                Arguments.of(TIERS + "rack r1 10.0.0.1\n", "line 4: expected 'rack NAME pod NAME HOST...'"),
                Arguments.of(TIERS + "rack r1 pod p1\n", "line 4: expected 'rack NAME pod NAME HOST...'"),
                Arguments.of(TIERS + rack + rack, "line 5: rack r1 is defined twice"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 0.0.0.0-0.0.0.3\n",
                        "line 4: invalid range '0.0.0.0-0.0.0.3': 0.0.0.0, the unspecified address, is not a host"),
                // Uplinks derived from an oversubscription are held to a tier's bound too (the simulator's numbers).
                Arguments.of(
                        "tier host rate 1000Tbps latency 1us buffer 5pkt\n"
                                + "tier rack oversubscription 1 latency 1us buffer 5pkt\n"
                                + "tier pod rate 1Gbps latency 1us buffer 5pkt\n"
                                + "rack r1 pod p1 10.0.0.1\nrack r2 pod p1 10.0.1.0-10.0.1.1\n",
                        "line 5: rack r2's uplink would run at over 1000Tbps (its 2 hosts' rate over the rack tier's"
                                + " oversubscription): give 'tier rack' a rate, or a higher oversubscription"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 5pkt\n"
                                + "tier rack rate 600Tbps latency 1us buffer 5pkt\n"
                                + "tier pod oversubscription 1 latency 1us buffer 5pkt\n"
                                + "rack r1 pod p1 10.0.0.1\nrack r2 pod p1 10.0.1.1\n",
                        "line 3: pod p1's uplink would run at over 1000Tbps (its racks' uplinks over the pod tier's"
                                + " oversubscription): give 'tier pod' a rate, or a higher oversubscription"),
                Arguments.of(
                        TIERS + rack + "rack r2 pod p1 10.0.0.0-10.0.0.3\n",
                        "line 5: host 10.0.0.1 is already in rack r1"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 10.0.0.300\n",
                        "line 4: invalid host '10.0.0.300': part '300' is not a number from 0 to 255"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 db1.example\n",
                        "line 4: invalid host 'db1.example': not an IPv4 or IPv6 address literal (host names are not resolved)"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 0.0.0.0\n",
                        "line 4: invalid host '0.0.0.0': the unspecified address is not a host"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 10.0.0.9-10.0.0.1\n",
                        "line 4: invalid range '10.0.0.9-10.0.0.1': the last address is before the first"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 10.0.0.0-10.1.0.0\n",
                        "line 4: invalid range '10.0.0.0-10.1.0.0': more than 4096 addresses"),
                Arguments.of(
                        TIERS + "rack r1 pod p1 ::1-::5\n",
                        "line 4: invalid range '::1-::5': ranges are of IPv4 addresses"),
                Arguments.of(
                        "tier host rate 1Gbps latency 1us buffer 5pkt\n" + rack,
                        "the topology needs a 'tier rack' line"),
                Arguments.of(TIERS, "the topology needs at least one 'rack' line"));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void rejectsBadInputWithItsLine(String text, String message) {
        assertThatThrownBy(() -> TopologyParser.parse(text))
                .isInstanceOf(TopologyException.class)
                .hasMessage(message);
    }

    @Test
    void theShippedExampleIsValid() throws TopologyException {
        Topology topology = TopologyParser.read(Path.of("..", "examples", "topology", "two-pods.topo"));
        assertThat(topology.racks()).hasSize(4);
        assertThat(topology.rackOf("10.1.1.7")).map(Topology.Rack::pod).contains("p2");
    }

    @Test
    void aFileThatIsNotUtf8SaysWhichLine(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("latin1.topo");
        Files.write(
                file,
                "tier host rate 1Gbps latency 5us buffer 50pkt\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> TopologyParser.read(file))
                .isInstanceOf(TopologyException.class)
                .hasMessage("line 2: not valid UTF-8 text");
    }

    @Test
    void aMissingFileIsAClearError() {
        assertThatThrownBy(() -> TopologyParser.read(Path.of("no-such.topo")))
                .isInstanceOf(TopologyException.class)
                .hasMessage("cannot read no-such.topo (no such file)");
    }
}
