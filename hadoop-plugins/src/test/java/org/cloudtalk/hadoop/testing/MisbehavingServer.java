package org.cloudtalk.hadoop.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What can sit on the CloudTalk server's port instead of it: a server that never answers, or one that lies. */
public final class MisbehavingServer implements AutoCloseable {
    private final AutoCloseable resource;
    private final List<Socket> held;

    private MisbehavingServer(AutoCloseable resource, List<Socket> held) {
        this.resource = resource;
        this.held = held;
    }

    /** How many connections a silent server has accepted (and holds). */
    public int accepted() {
        return held.size();
    }

    /** Accepts connections on {@code port} and never answers (a hung or overloaded server). */
    public static MisbehavingServer silent(int port) throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        List<Socket> held = new CopyOnWriteArrayList<>();
        Thread acceptor = new Thread(
                () -> {
                    while (!listener.isClosed()) {
                        try {
                            held.add(listener.accept());
                        } catch (IOException e) {
                            return;
                        }
                    }
                },
                "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return new MisbehavingServer(
                () -> {
                    listener.close();
                    for (Socket socket : held) {
                        socket.close();
                    }
                    acceptor.join(5000);
                },
                held);
    }

    /** Answers every request on {@code port} with HTTP 200 and {@code body}. */
    public static MisbehavingServer answering(int port, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return new MisbehavingServer(() -> server.stop(0), List.of());
    }

    @Override
    public void close() throws Exception {
        resource.close();
    }
}
