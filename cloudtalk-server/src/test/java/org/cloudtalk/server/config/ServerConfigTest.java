package org.cloudtalk.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerConfigTest {
    @Test
    void connectionAndStatusAgeKeysHaveDefaultsAndBounds() throws Exception {
        ServerConfig defaults = ServerConfig.from(Map.of("status.file", "/nonexistent.json"));
        assertThat(defaults.http().maxConnections()).isEqualTo(1024);
        assertThat(defaults.http().requestDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.statusMaxAge()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.gatherWait()).isEqualTo(Duration.ofMillis(100));

        ServerConfig set = ServerConfig.from(Map.of(
                "status.file", "/nonexistent.json",
                "http.max.connections", "10",
                "http.request.deadline.ms", "2500",
                "status.max.age.ms", "750"));
        assertThat(set.http().maxConnections()).isEqualTo(10);
        assertThat(set.http().requestDeadline()).isEqualTo(Duration.ofMillis(2500));
        assertThat(set.statusMaxAge()).isEqualTo(Duration.ofMillis(750));

        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "x", "http.max.connections", "0")))
                .hasMessage("Invalid value 0 for http.max.connections: must be between 1 and 1000000");
        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "x", "http.request.deadline.ms", "soon")))
                .hasMessage("Invalid value soon for http.request.deadline.ms: not a whole number");
        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "x", "status.max.age.ms", "-1")))
                .hasMessage("Invalid value -1 for status.max.age.ms: must be between 1 and 3600000");
    }

    @Test
    void reservationsHoldForTheDaemonsLagThenFadeOverTheirWindowByDefault() throws Exception {
        ServerConfig defaults = ServerConfig.from(Map.of("status.file", "/nonexistent.json"));
        assertThat(defaults.reservationHold()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.reservationFade()).isEqualTo(Duration.ofSeconds(1));

        ServerConfig paper = ServerConfig.from(
                Map.of("status.file", "/nonexistent.json", "reservation.hold.ms", "300", "reservation.fade.ms", "0"));
        assertThat(paper.reservationHold()).isEqualTo(Duration.ofMillis(300));
        assertThat(paper.reservationFade()).isZero();
        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "x", "reservation.fade.ms", "1s")))
                .hasMessage("Invalid value 1s for reservation.fade.ms: not a whole number");
        assertThatThrownBy(() -> ServerConfig.from(Map.of("status.file", "x", "reservation.fade.ms", "-1")))
                .hasMessage("Invalid value -1 for reservation.fade.ms: must be between 0 and 3600000");
    }
}
