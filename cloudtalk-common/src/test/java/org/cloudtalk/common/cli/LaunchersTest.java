package org.cloudtalk.common.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class LaunchersTest {
    @Test
    void aBindFailureBlamesTheAddressWhenItIsNotThisMachines() throws Exception {
        // 192.0.2.1 is TEST-NET-1: never an address of this machine.
        assertThat(Launchers.bindFailure(
                        new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 7480),
                        new BindException("Cannot assign requested address")))
                .isEqualTo("Invalid value 192.0.2.1 for bind: cannot listen on 192.0.2.1:7480"
                        + " (Cannot assign requested address)");
    }

    @Test
    void aBindFailureBlamesThePortOnALocalAddress() throws Exception {
        assertThat(Launchers.bindFailure(
                        new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7480),
                        new BindException("Address already in use")))
                .isEqualTo("Invalid value 7480 for port: cannot listen on 127.0.0.1:7480 (Address already in use)");
        assertThat(Launchers.bindFailure(
                        new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 7480),
                        new BindException("Address already in use")))
                .startsWith("Invalid value 7480 for port: ");
        assertThat(Launchers.bindFailure(
                        new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 80),
                        new BindException("Permission denied")))
                .startsWith("Invalid value 80 for port: ");
    }

    @Test
    void anIpv6AuthorityIsBracketed() throws Exception {
        assertThat(Launchers.authority(new InetSocketAddress(InetAddress.getByName("::1"), 7480)))
                .isEqualTo("[0:0:0:0:0:0:0:1]:7480");
        assertThat(Launchers.authority(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 7480)))
                .isEqualTo("10.0.0.1:7480");
    }
}
