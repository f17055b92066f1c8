package org.cloudtalk.server.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyConfigTest {
    @TempDir
    Path dir;

    @Test
    void theServerLoadsTheTopologyFile() throws Exception {
        ServerConfig config = ServerConfig.from(Map.of(
                "status.file",
                "status.json",
                "topology.file",
                Path.of("..", "examples", "topology", "two-pods.topo").toString()));
        assertThat(config.topology())
                .hasValueSatisfying(t -> assertThat(t.racks()).hasSize(4));
        assertThat(ServerConfig.from(Map.of("status.file", "status.json")).topology())
                .isEmpty();
    }

    @Test
    void aBadTopologyStopsTheServerWithTheFileAndLine() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.topo"), "tier host rate 1Gbps latency 1us buffer 5pkt\nrack\n");
        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "s.json", "topology.file", file.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "Invalid value " + file + " for topology.file: line 2: expected 'rack NAME pod NAME HOST...'");
    }
}
