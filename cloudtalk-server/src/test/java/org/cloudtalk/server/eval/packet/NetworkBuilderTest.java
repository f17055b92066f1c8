package org.cloudtalk.server.eval.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.topology.TopologyParser;
import org.junit.jupiter.api.Test;

class NetworkBuilderTest {
    @Test
    void switchPortsHoldTheTiersBuffersAndHostsTheirOwnTransmitQueue() throws Exception {
        var topology = TopologyParser.parse("tier host rate 1Gbps latency 5us buffer 50pkt\n"
                + "tier rack rate 10Gbps latency 5us buffer 60pkt\n"
                + "tier pod rate 40Gbps latency 10us buffer 70pkt\n"
                + "rack r1 pod p1 10.0.1.1-10.0.1.2\n"
                + "rack r2 pod p2 10.0.2.1-10.0.2.2\n");
        QueryModel model = new QueryModel(
                new QueryParser()
                        .parse(
                                "A = (10.0.1.2 10.0.2.2)\nf1 10.0.1.1 -> A size 10KB\nf2 A -> 10.0.2.1 size 10KB transfer t(f1)\n"));

        SimulationInput input = new NetworkBuilder(Optional.of(topology))
                .build(model, FlowPlan.of(model), new Binding(Map.of("A", "10.0.2.2")));

        // Nodes in order of need: 0 core, 1 host 10.0.1.1, 2 rack r1, 3 pod p1, 4 host 10.0.2.2, 5 r2, 6 p2, 7
        // 10.0.2.1.
        assertThat(input.links())
                .extracting(l -> l.a() + "-" + l.b() + " " + l.bitsPerSecond() + " " + l.bufferA() + " " + l.bufferB())
                .containsExactlyInAnyOrder(
                        "1-2 1000000000 1000p 50p",
                        "2-3 10000000000 60p 60p",
                        "3-0 40000000000 70p 70p",
                        "4-5 1000000000 1000p 50p",
                        "5-6 10000000000 60p 60p",
                        "6-0 40000000000 70p 70p",
                        "7-5 1000000000 1000p 50p");
        assertThat(input.flows())
                .extracting(f -> f.id() + " " + f.source() + "->" + f.destination())
                .containsExactly("f1 1->4", "f2 4->7");
    }

    @Test
    void withoutATopologyHostsHangOffTheCoreOnDefaultHostLinks() {
        QueryModel model = new QueryModel(new QueryParser().parse("f1 10.0.0.1 -> 10.0.0.2 size 1MB\n"));

        SimulationInput input =
                new NetworkBuilder(Optional.empty()).build(model, FlowPlan.of(model), new Binding(Map.of()));

        assertThat(input.links())
                .extracting(l -> l.a() + "-" + l.b() + " " + l.bitsPerSecond() + " " + l.bufferA() + " " + l.bufferB())
                .containsExactly("1-0 1000000000 1000p 100p", "2-0 1000000000 1000p 100p");
    }
}
