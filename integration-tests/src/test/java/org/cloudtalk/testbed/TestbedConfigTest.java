package org.cloudtalk.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;

class TestbedConfigTest {
    @Test
    void badValuesSayWhichAndWhy() {
        TestbedConfig defaults = TestbedConfig.defaults();
        assertThatThrownBy(() -> defaults.withHosts(1))
                .hasMessage("Invalid value 1 for --hosts: must be between 2 and 250");
        assertThatThrownBy(() -> defaults.withRate(0))
                .hasMessage("Invalid value 0 for --rate: must be between 1 and 10000 Mbit/s");
        assertThatThrownBy(() -> defaults.withNames("Bad-Name", 77, Path.of("/tmp")))
                .hasMessageStartingWith("Invalid value Bad-Name for --prefix");
    }

    @Test
    void hostsGetNamesUnderThePrefixAndOneAddressEach() {
        Host host = Host.of("cttb", 77, 251);
        assertThat(host.namespace()).isEqualTo("cttb-h251");
        assertThat(host.address()).isEqualTo("10.77.2.2");
        assertThat(host.managementAddress()).isEqualTo("10.78.2.2");
        assertThat(host.coreLink()).hasSizeLessThanOrEqualTo(15);
        assertThat(Host.of("cttb", 77, 0).address()).isEqualTo("10.77.1.1");
    }
}
