package org.cloudtalk.status.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
            Process daemon = new ProcessBuilder(List.of(
                            ProcessHandle.current().info().command().orElse("java"),
                            "-Xmx64m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            StatusDaemonMain.class.getName(),
                            "--bind",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(port),
                            "--endpoints",
                            "127.0.0.1",
                            "--key-file",
                            key.toString()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
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
}
