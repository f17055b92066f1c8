package org.cloudtalk.solr.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.cloudtalk.client.api.EvaluatorName;
import org.junit.jupiter.api.Test;

class AdvisorConfigTest {
    @Test
    void defaults() {
        AdvisorConfig config = AdvisorConfig.from(Map.of("socketTimeout", "90000"));
        assertThat(config.server()).isEqualTo(URI.create("http://127.0.0.1:7480"));
        assertThat(config.deadline()).isEqualTo(Duration.ofMillis(5));
        assertThat(config.queryTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.cacheTtl()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.responseBytes()).isEqualTo(10 * 1024);
        assertThat(config.diskReadBytes()).isZero();
        assertThat(config.evaluator()).isEqualTo(EvaluatorName.REFINED);
        assertThat(config.hostMap()).isEmpty();
        assertThat(config.hostMapFile()).isEmpty();
        assertThat(config.threads()).isEqualTo(2);
    }

    /** Every key set to a blank value takes its default, text keys as numbers do. */
    @Test
    void blankValuesTakeTheirDefaults() {
        AdvisorConfig config = AdvisorConfig.from(
                Map.of(AdvisorConfig.SERVER, " ", AdvisorConfig.EVALUATOR, "", AdvisorConfig.DEADLINE_MS, " "));
        assertThat(config.server()).isEqualTo(URI.create("http://127.0.0.1:7480"));
        assertThat(config.evaluator()).isEqualTo(EvaluatorName.REFINED);
        assertThat(config.deadline()).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void aNodeMappedToTwoAddressesIsRefused() {
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of(AdvisorConfig.HOST_MAP, "node1=10.0.0.1,node1=10.0.0.2")))
                .hasMessage("Invalid value node1=10.0.0.1,node1=10.0.0.2 for cloudtalk.host.map: node1 is mapped to"
                        + " 10.0.0.1 and to 10.0.0.2");
        assertThat(AdvisorConfig.from(Map.of(AdvisorConfig.HOST_MAP, "node1=10.0.0.1,node1=10.0.0.1"))
                        .hostMap())
                .isEqualTo(Map.of("node1", "10.0.0.1"));
    }

    @Test
    void badValuesSayWhichKeyAndWhy() {
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.deadline.ms", "soon")))
                .hasMessage("Invalid value soon for cloudtalk.deadline.ms: not an integer");
        for (String lenient : List.of("+5", "\u0665")) { // Long.parseLong takes both
            assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.deadline.ms", lenient)))
                    .hasMessage("Invalid value " + lenient + " for cloudtalk.deadline.ms: not an integer");
        }
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.cache.ttl.ms", "-1")))
                .hasMessage("Invalid value -1 for cloudtalk.cache.ttl.ms: expected 0..3600000");
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.server", "ftp://x")))
                .hasMessage("Invalid value ftp://x for cloudtalk.server: expected http://HOST:PORT");
        // Queries go to the port 80 of a URL without one, and to /v1/query whatever path a URL names.
        for (String server : List.of("http://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:70000")) {
            assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.server", server)))
                    .hasMessage("Invalid value " + server
                            + " for cloudtalk.server: expected http://HOST:PORT with a port from 1 to 65535");
        }
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.server", "http://127.0.0.1:7480/solr")))
                .hasMessage(
                        "Invalid value http://127.0.0.1:7480/solr for cloudtalk.server: expected http://HOST:PORT and "
                                + "nothing more (queries go to /v1/query)");
        assertThat(AdvisorConfig.from(Map.of("cloudtalk.server", " http://[::1]:7480/ "))
                        .server())
                .isEqualTo(URI.create("http://[::1]:7480/"));
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.evaluator", "magic")))
                .hasMessage(
                        "Invalid value magic for cloudtalk.evaluator: expected heuristic, flow, exhaustive or refined");
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.evaluator", "packet")))
                .hasMessage(
                        "Invalid value packet for cloudtalk.evaluator: expected heuristic, flow, exhaustive or refined");
        assertThat(AdvisorConfig.from(Map.of("cloudtalk.evaluator", " Heuristic "))
                        .evaluator())
                .isEqualTo(EvaluatorName.HEURISTIC);
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("cloudtalk.deadline", "5")))
                .hasMessageStartingWith("Invalid value 5 for cloudtalk.deadline: unknown key");
        assertThatThrownBy(() -> AdvisorConfig.from(Map.of("CloudTalk.deadline.ms", "5")))
                .hasMessageStartingWith("Invalid value 5 for CloudTalk.deadline.ms: unknown key");
    }
}
