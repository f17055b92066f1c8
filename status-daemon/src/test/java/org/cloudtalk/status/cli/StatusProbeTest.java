package org.cloudtalk.status.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.cloudtalk.status.FakeSystem;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import org.cloudtalk.status.wire.DropReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe against a real daemon on a real loopback UDP socket. */
class StatusProbeTest {
    /** A daemon on loopback serving {@code endpoints} over a copied /sys and /proc, keyed by {@code temp}/key. */
    private static StatusDaemon daemon(Path temp, String endpoints) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        Files.writeString(temp.resolve("key"), "loopback-test-key-0123456789");
        Map<String, String> properties = new HashMap<>();
        properties.put("key.file", temp.resolve("key").toString());
        properties.put("bind", "127.0.0.1");
        properties.put("port", "0");
        properties.put("endpoints", endpoints);
        properties.put("interface", FakeSystem.NIC);
        properties.put("disk", FakeSystem.DISK);
        properties.put("nic.capacity.mbps", "100");
        properties.put("sysfs.root", system.files().sysfs().toString());
        properties.put("procfs.root", system.files().procfs().toString());
        return StatusDaemon.start(DaemonConfig.from(properties));
    }

    @Test
    void probesARunningDaemon(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        try (StatusDaemon daemon = daemon(temp, "127.0.0.1")) {
            String target = "127.0.0.1:" + daemon.localAddress().getPort();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = StatusProbe.run(
                    new String[] {target, "--key-file", key.toString(), "--endpoint", "127.0.0.1"},
                    new PrintStream(out, true),
                    new PrintStream(err, true));
            assertThat(err.toString()).isEmpty();
            assertThat(exit).isZero();
            assertThat(out.toString())
                    .contains("\"endpoint\":\"127.0.0.1\",\"known\":true")
                    .contains("\"nicRxCapacityBitsPerSecond\":100000000")
                    .contains("\"diskReadCapacityBytesPerSecond\":209715200");

            Path wrongKey = temp.resolve("wrong");
            Files.writeString(wrongKey, "not-the-deployment-key");
            exit = StatusProbe.run(
                    new String[] {target, "--key-file", wrongKey.toString(), "--timeout-ms", "300"},
                    new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true));
            assertThat(exit).isEqualTo(StatusProbe.NO_REPLY);
            assertThat(daemon.counters().dropped(DropReason.BAD_MAC)).isEqualTo(1);
        }
    }

    /** A reply for every endpoint carries 24 at most: the probe says when its reply is that full. */
    @Test
    void saysWhenAReplyForEveryEndpointIsFull(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        String endpoints = String.join(
                ",",
                java.util.stream.IntStream.rangeClosed(1, 25)
                        .mapToObj(i -> "127.0.0." + i)
                        .toList());
        try (StatusDaemon daemon = daemon(temp, endpoints)) {
            String target = "127.0.0.1:" + daemon.localAddress().getPort();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = StatusProbe.run(
                    new String[] {target, "--key-file", key.toString()},
                    new PrintStream(out, true),
                    new PrintStream(err, true));
            assertThat(exit).isZero();
            assertThat(out.toString().split("\"endpoint\":", -1)).hasSize(25);
            assertThat(err.toString())
                    .contains("the reply holds 24 endpoints, the most one reply carries; the daemon may serve more:"
                            + " name them with --endpoint");
        }
    }

    @Test
    void timesOutWhenNobodyAnswers(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.writeString(key, "loopback-test-key-0123456789");
        try (DatagramSocket silent = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = StatusProbe.run(
                    new String[] {
                        "127.0.0.1:" + silent.getLocalPort(), "--key-file", key.toString(), "--timeout-ms", "200"
                    },
                    new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true));
            assertThat(exit).isEqualTo(StatusProbe.NO_REPLY);
            assertThat(err.toString()).contains("no reply from").contains("within 200 ms");
        }
    }
}
