package org.cloudtalk.hadoop.hdfs.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.junit.jupiter.api.Test;

class WritePlannerTest {
    @Test
    void oneQueryPlacesNoMoreBlocksThanFitOnDistinctHostsAndWithinTheServersLimits() {
        assertThat(WritePlanner.mostThatFit(6, 3)).as("distinct hosts").isEqualTo(2);
        assertThat(WritePlanner.mostThatFit(30, 3))
                .as("30 candidates: 10 chains, 900 values each")
                .isEqualTo(10);
        assertThat(WritePlanner.mostThatFit(1000, 3))
                .as("3 x 1000 values per block: 3 blocks")
                .isEqualTo(3);
        assertThat(WritePlanner.mostThatFit(3000, 3))
                .as("one block even over the limit")
                .isEqualTo(1);
        assertThat(WritePlanner.mostThatFit(500, 1)).as("100 variables at most").isEqualTo(20);
    }

    /** Two DataNodes on CloudTalk's first host: one replica there, the others on the second and third hosts. */
    @Test
    void aHostRunningTwoDataNodesIsAimedAtOnceAsCloudTalkAnswered() {
        DatanodeDescriptor first = node("127.0.0.71", 9866, "/r2");
        DatanodeDescriptor firstTwin = node("127.0.0.71", 9867, "/r2");
        DatanodeDescriptor second = node("127.0.0.73", 9866, "/r1");
        DatanodeDescriptor third = node("127.0.0.72", 9866, "/r2");
        Map<String, List<DatanodeDescriptor>> byEndpoint = Map.of(
                "127.0.0.71", List.of(first, firstTwin),
                "127.0.0.73", List.of(second),
                "127.0.0.72", List.of(third));

        WritePreference preference =
                WritePlanner.preference(List.of("127.0.0.71", "127.0.0.73", "127.0.0.72"), 3, byEndpoint, 2);

        assertThat(preference.order().subList(0, 3)).containsExactlyInAnyOrder(first, second, third);
        assertThat(preference.order()).endsWith(firstTwin);
    }

    private static DatanodeDescriptor node(String ip, int port, String rack) {
        return new DatanodeDescriptor(
                new DatanodeID(ip, ip, ip + ":" + port, port, port + 1, port + 2, port + 3), rack);
    }
}
