package org.cloudtalk.testbed.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.topology.Topology;
import org.cloudtalk.server.topology.TopologyParser;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;

class IncastTest {
    private static final List<Host> HOSTS =
            List.of(Host.of("t", 77, 0), Host.of("t", 77, 1), Host.of("t", 77, 2), Host.of("t", 77, 3));

    @Test
    void theQueryIsOneFlowFromEachSenderIntoTheReceiver() {
        Query query = new QueryParser().parse(Incast.query(HOSTS.get(0), HOSTS.subList(1, 4), 10_240));

        assertThat(query.declarations()).isEmpty();
        assertThat(query.flows()).hasSize(3);
        assertThat(Incast.query(HOSTS.get(0), HOSTS.subList(1, 2), 10_240))
                .isEqualTo("f1 10.77.1.2 -> 10.77.1.1 size 10240B\n");
    }

    @Test
    void theTopologyIsTheTestbedsAccessLinksOnOneSwitch() throws Exception {
        Topology topology = TopologyParser.parse(Incast.topology(HOSTS, 400, 75_000));

        assertThat(topology.hostRate()).isEqualTo(400e6 / 8);
        assertThat(topology.host().buffer()).isEqualTo(new Topology.Buffer(75_000, false));
        assertThat(topology.host().latencySeconds()).isCloseTo(10e-6, within(1e-12));
        assertThat(topology.racks()).singleElement().satisfies(rack -> assertThat(rack.hosts())
                .containsExactly("10.77.1.1", "10.77.1.2", "10.77.1.3", "10.77.1.4"));
        // The fabric above the hosts never limits: 2,500x the host tier.
        assertThat(topology.rack().rate().getAsDouble()).isGreaterThan(1000 * topology.hostRate());
        assertThat(topology.pod().rate().getAsDouble()).isGreaterThan(1000 * topology.hostRate());
    }

    @Test
    void settingsOutsideTheirRangeAreRefused() {
        assertThatThrownBy(() -> new Incast(10_240, 20, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one packet");
        assertThatThrownBy(() -> new Incast(0, 20, 75_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Incast(10_240, 0, 75_000)).isInstanceOf(IllegalArgumentException.class);
    }
}
