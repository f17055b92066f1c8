package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.cloudtalk.lang.ast.Address;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressTest {
    @ParameterizedTest
    @CsvSource({
        "10.0.0.1, 10.0.0.1, IPV4",
        "255.255.255.255, 255.255.255.255, IPV4",
        "0.0.0.0, 0.0.0.0, IPV4",
        "::, ::, IPV6",
        "::1, ::1, IPV6",
        "2001:DB8:0:0:0:0:0:1, 2001:db8::1, IPV6",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1, IPV6",
        "2001:0db8:0000:0000:0001:0000:0000:0001, 2001:db8::1:0:0:1, IPV6",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1, IPV6",
        "fe80::, fe80::, IPV6",
        "::ffff:10.0.0.1, 10.0.0.1, IPV4",
        "0:0:0:0:0:FFFF:7f00:1, 127.0.0.1, IPV4",
        "::fffe:10.0.0.1, ::fffe:a00:1, IPV6",
        "1:2:3:4:5:6:7:8, 1:2:3:4:5:6:7:8, IPV6",
    })
    void canonicalizes(String literal, String canonical, Address.Family family) {
        Address address = Address.parse(literal);
        assertThat(address.text()).isEqualTo(canonical);
        assertThat(address.family()).isEqualTo(family);
        assertThat(Address.parse(canonical)).isEqualTo(address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "0:0:0:0:0:0:0:0"})
    void recognizesUnspecified(String literal) {
        assertThat(Address.parse(literal).isUnspecified()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "1.2.3",
                "1.2.3.4.5",
                "256.1.1.1",
                "01.1.1.1",
                "1..1.1",
                "a.b.c.d",
                "host",
                "1:2",
                ":::",
                "1::2::3",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7::8",
                "g::1",
                "::1.2.3.4:5",
                "12345::"
            })
    void rejects(String literal) {
        assertThatThrownBy(() -> Address.parse(literal)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "127.0.0.2", "::1", "2001:db8::1:0:0:1", "fe80::"})
    void convertsToAndFromTheJdksTypeWithoutChangingIdentity(String literal) throws Exception {
        Address address = Address.parse(literal);

        java.net.InetAddress jdk = address.toInetAddress();

        assertThat(Address.of(jdk)).isEqualTo(address);
        assertThat(jdk).isEqualTo(java.net.InetAddress.getByName(literal));
    }

    @Test
    void anIpv4MappedJdkAddressIsTheIpv4Host() throws Exception {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1};
        // Inet6Address keeps the mapped form (InetAddress.getByAddress would already give an Inet4Address).
        java.net.Inet6Address jdk = java.net.Inet6Address.getByAddress(null, mapped, null);

        assertThat(Address.of(jdk)).isEqualTo(Address.parse("10.0.0.1"));
    }
}
