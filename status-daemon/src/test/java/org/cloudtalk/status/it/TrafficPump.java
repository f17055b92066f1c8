package org.cloudtalk.status.it;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP traffic source and sink for the namespace tests, run as its own process inside a namespace:
 * {@code serve PORT SECONDS} accepts connections and discards what they send; {@code send HOST PORT SECONDS} sends
 * as fast as the (shaped) link allows. Both stop by themselves.
 */
public final class TrafficPump {
    private TrafficPump() {}

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + Long.parseLong(args[args.length - 1]) * 1_000_000_000L;
        if (args[0].equals("serve")) {
            try (ServerSocket server = new ServerSocket(Integer.parseInt(args[1]))) {
                server.setSoTimeout(1000);
                while (System.nanoTime() < deadline) {
                    try {
                        Socket socket = server.accept();
                        Thread sink = new Thread(() -> drain(socket));
                        sink.setDaemon(true);
                        sink.start();
                    } catch (java.net.SocketTimeoutException e) {
                        // keep accepting until the deadline
                    }
                }
            }
            return;
        }
        byte[] chunk = new byte[64 * 1024];
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(args[1], Integer.parseInt(args[2])), 5000);
            OutputStream out = socket.getOutputStream();
            while (System.nanoTime() < deadline) {
                out.write(chunk);
            }
        }
    }

    private static void drain(Socket socket) {
        byte[] buffer = new byte[64 * 1024];
        try (socket;
                InputStream in = socket.getInputStream()) {
            while (in.read(buffer) >= 0) {
                // discard
            }
        } catch (java.io.IOException e) {
            // the sender went away
        }
    }
}
