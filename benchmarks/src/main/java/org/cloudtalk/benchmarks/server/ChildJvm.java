package org.cloudtalk.benchmarks.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.server.cli.ServerMain;

/**
 * A benchmark's server or daemons in their own JVM (this classpath, bounded heap, serial GC, warn-level logging), so
 * the load generator does not share their CPU time and GC pauses. Closing it stops the process.
 */
record ChildJvm(Process process, Path log) implements AutoCloseable {
    private static final int READY_POLLS = 600;
    private static final long POLL_MILLIS = 100;

    static ChildJvm start(Path log, String heap, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-XX:+UseSerialGC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new ChildJvm(process, log);
    }

    /**
     * A CloudTalk server in a child JVM (512 MiB heap, log {@code dir/server.log}) on a loopback port free now, with
     * the keys in {@code settings} (properties lines) written to {@code dir/configName}; returned once it answers
     * {@code /healthz}.
     */
    static Server startServer(Path dir, String configName, String... settings)
            throws IOException, InterruptedException {
        int port = freeTcpPort();
        Path config = dir.resolve(configName);
        List<String> lines = new ArrayList<>(List.of("bind=127.0.0.1", "port=" + port));
        lines.addAll(List.of(settings));
        Files.writeString(config, String.join("\n", lines) + "\n");
        ChildJvm jvm =
                start(dir.resolve("server.log"), "512m", ServerMain.class.getName(), "--config", config.toString());
        try {
            jvm.awaitHealthy(port);
        } catch (IOException | InterruptedException | RuntimeException e) {
            jvm.close();
            throw e;
        }
        return new Server(jvm, port);
    }

    /** A running server child and its API port; closing it stops the process. */
    record Server(ChildJvm jvm, int port) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            jvm.close();
        }
    }

    /**
     * A TCP port free on loopback now (the kernel's choice), for a child's server: a random one collided with ports in
     * use on a shared machine. Another process may still take it before the child binds; that fails loudly.
     */
    static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A UDP port free on loopback now, for the children's status daemons. */
    static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Waits until the child has written {@code marker} to its log. */
    void awaitLogLine(String marker) throws IOException, InterruptedException {
        for (int i = 0; i < READY_POLLS; i++) {
            if (Files.exists(log) && Files.readString(log).contains(marker)) {
                return;
            }
            failIfExited(null);
            Thread.sleep(POLL_MILLIS);
        }
        throw new IllegalStateException("child not ready: " + Files.readString(log));
    }

    /** Waits until the CloudTalk server in the child answers {@code GET /healthz} with 200 on {@code port}. */
    void awaitHealthy(int port) throws IOException, InterruptedException {
        for (int i = 0; i < READY_POLLS; i++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.getOutputStream()
                        .write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                if (RawHttp.readResponse(new BufferedInputStream(socket.getInputStream())) == 200) {
                    return;
                }
            } catch (IOException e) {
                failIfExited(e);
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw new IllegalStateException("server not healthy: " + Files.readString(log));
    }

    private void failIfExited(IOException cause) throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException("child exited: " + Files.readString(log), cause);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
