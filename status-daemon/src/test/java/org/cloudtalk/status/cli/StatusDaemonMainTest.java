package org.cloudtalk.status.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's command line as an operator meets it: a real JVM, a real socket. */
class StatusDaemonMainTest {
    @Test
    void aTakenPortIsAConfigErrorAndTheJvmExits(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.writeString(key, "loopback-test-key-0123456789");
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Process daemon = start(
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(port),
                    "--endpoints",
                    "127.0.0.1",
                    "--key-file",
                    key.toString());
            try {
                // Measured from process start, so the JVM's own start-up is inside the 2 s.
                assertThat(daemon.waitFor(2, TimeUnit.SECONDS))
                        .as("daemon exits on a taken port")
                        .isTrue();
                String err = new String(daemon.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(daemon.exitValue()).isEqualTo(78);
                assertThat(err)
                        .containsPattern("(?m)^status-daemon: Invalid value " + port
                                + " for port: cannot listen on 127\\.0\\.0\\.1:" + port
                                + " \\(Address already in use\\)$")
                        .doesNotContain("Exception")
                        .doesNotContain("\tat ");
            } finally {
                daemon.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void aNamedInterfaceThatDoesNotExistIsAConfigErrorAndTheJvmExits(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.writeString(key, "loopback-test-key-0123456789");
        Path config = temp.resolve("daemon.properties");
        Files.writeString(config, "interface = nonexistent0\n");
        Process daemon = start(
                "--config",
                config.toString(),
                "--bind",
                "127.0.0.1",
                "--port",
                "0",
                "--endpoints",
                "127.0.0.1",
                "--key-file",
                key.toString());
        try {
            assertThat(daemon.waitFor(5, TimeUnit.SECONDS))
                    .as("daemon exits on a missing interface")
                    .isTrue();
            String err = new String(daemon.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(daemon.exitValue()).isEqualTo(78);
            assertThat(err)
                    .contains("status-daemon: Invalid value nonexistent0 for interface: no such network interface")
                    .doesNotContain("\tat ");
        } finally {
            daemon.destroyForcibly().waitFor();
        }
    }

    /** The daemon in its own small JVM, as bin/cloudtalk starts it. */
    private static Process start(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                StatusDaemonMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}
