package org.cloudtalk.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A start that fails half-way, in a process that goes on (a test, the quickstart): nothing is left running. */
class FailedStartTest {
    @Test
    void aTakenPortLeavesNoStatusSocketOrThreadBehind(@TempDir Path temp) throws Exception {
        Path key = writeKey(temp);
        long before = nettyThreads();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerConfig config = ServerConfig.from(Map.of(
                    "bind",
                    "127.0.0.1",
                    "port",
                    Integer.toString(taken.getLocalPort()),
                    "status.key.file",
                    key.toString()));
            assertThatThrownBy(() -> CloudTalkServer.start(config)).isInstanceOf(BindException.class);
        }
        assertThat(nettyThreads()).as("Netty threads after the failed start").isEqualTo(before);
    }

    @Test
    void aBadStatusFileBesideTheDaemonsOpensNothing(@TempDir Path temp) throws Exception {
        Path key = writeKey(temp);
        Path status = temp.resolve("status.json");
        Files.writeString(status, "{not json");
        long before = nettyThreads();
        ServerConfig config = ServerConfig.from(
                Map.of("port", "0", "status.key.file", key.toString(), "status.file", status.toString()));
        assertThatThrownBy(() -> CloudTalkServer.start(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value " + status + " for status.file");
        assertThat(nettyThreads()).as("Netty threads after the failed start").isEqualTo(before);
    }

    private static Path writeKey(Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.write(key, "failed-start-test-key-0123456789".getBytes(StandardCharsets.US_ASCII));
        return key;
    }

    /** Netty's event-loop threads alive now; a closed group's threads end within its shutdown's timeout. */
    private static long nettyThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith("nioEventLoopGroup"))
                .count();
    }
}
