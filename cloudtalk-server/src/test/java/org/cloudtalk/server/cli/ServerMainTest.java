package org.cloudtalk.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's command line as an operator meets it: a real JVM, a real socket. */
class ServerMainTest {
    @Test
    void aTakenPortIsAConfigErrorAndTheJvmExits(@TempDir Path temp) throws Exception {
        Path status = temp.resolve("status.json");
        Files.writeString(
                status,
                "{\"hosts\": {\"127.0.0.1\": {\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9,"
                        + " \"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}}}");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Process server = new ProcessBuilder(List.of(
                            ProcessHandle.current().info().command().orElse("java"),
                            "-Xmx128m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            ServerMain.class.getName(),
                            "--bind",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(port),
                            "--status-file",
                            status.toString()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            try {
                // Measured from process start, so the JVM's own start-up is inside the 2 s.
                assertThat(server.waitFor(2, TimeUnit.SECONDS))
                        .as("server exits on a taken port")
                        .isTrue();
                String err = new String(server.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(server.exitValue()).isEqualTo(78);
                assertThat(err)
                        .containsPattern("(?m)^cloudtalk server: Invalid value " + port
                                + " for port: cannot listen on 127\\.0\\.0\\.1:" + port
                                + " \\(Address already in use\\)$")
                        .doesNotContain("Exception")
                        .doesNotContain("\tat ");
            } finally {
                server.destroyForcibly().waitFor();
            }
        }
    }
}
