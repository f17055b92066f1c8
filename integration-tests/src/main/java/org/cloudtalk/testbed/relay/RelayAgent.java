package org.cloudtalk.testbed.relay;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The copy agent of one emulated host: forwards a stream along a chain of hosts as an HDFS write pipeline does, each
 * hop passing on what it receives while it receives it, the last one acknowledging back up the chain once it has
 * everything. A controller (the experiment, over the unshaped management link) asks the chain's first host to send;
 * the answer is the copy's time from the first connection to the last acknowledgement.
 *
 * <p>Wire format (big-endian): a request is a type byte, the number of hops after this one, their IPv4 addresses
 * and the payload length. {@code C} (from the controller): send {@code length} bytes along the hops, then answer
 * the elapsed nanoseconds as a long. {@code D} (from the previous hop): the payload follows; forward it to the next
 * hop if there is one, then acknowledge with one byte. Any failure closes the connection, which the controller sees
 * as a failed copy.
 */
public final class RelayAgent {
    static final byte COMMAND = 'C';
    static final byte DATA = 'D';
    static final byte ACK = 'A';
    private static final int CHUNK = 64 * 1024;

    private RelayAgent() {}

    /** {@code RelayAgent PORT}: serves on every address of the host until killed. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: RelayAgent PORT");
            System.exit(64);
        }
        int port = Integer.parseInt(args[0]);
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port), 64);
            while (true) {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> serve(socket, port), "relay");
                handler.setDaemon(true);
                handler.start();
            }
        }
    }

    private static void serve(Socket socket, int port) {
        try (socket) {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), CHUNK));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), CHUNK));
            byte type = in.readByte();
            Request request = Request.read(in);
            if (type == COMMAND) {
                long start = System.nanoTime();
                send(request, null, port);
                out.writeLong(System.nanoTime() - start);
                out.flush();
            } else if (type == DATA) {
                send(request, in, port);
                out.writeByte(ACK);
                out.flush();
            }
        } catch (IOException e) {
            // The connection closes: upstream sees the failure.
        }
    }

    /**
     * Sends {@code request.length()} bytes (read from {@code upstream}, or zeros when this host is the source) to the
     * next hop and waits for its acknowledgement; with no next hop, only reads them.
     */
    private static void send(Request request, InputStream upstream, int port) throws IOException {
        byte[] buffer = new byte[CHUNK];
        if (request.hops().length == 0) {
            drain(upstream, request.length(), buffer);
            return;
        }
        try (Socket next = new Socket()) {
            next.setTcpNoDelay(true);
            next.connect(new InetSocketAddress(request.hops()[0], port), 5000);
            DataOutputStream down = new DataOutputStream(new BufferedOutputStream(next.getOutputStream(), CHUNK));
            down.writeByte(DATA);
            request.rest().write(down);
            long left = request.length();
            while (left > 0) {
                int chunk = (int) Math.min(buffer.length, left);
                if (upstream != null) {
                    chunk = upstream.read(buffer, 0, chunk);
                    if (chunk < 0) {
                        throw new IOException("the previous hop closed early");
                    }
                }
                down.write(buffer, 0, chunk);
                left -= chunk;
            }
            down.flush();
            if (next.getInputStream().read() != ACK) {
                throw new IOException("no acknowledgement from " + request.hops()[0]);
            }
        }
    }

    private static void drain(InputStream in, long length, byte[] buffer) throws IOException {
        long left = length;
        while (left > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (read < 0) {
                throw new IOException("the previous hop closed early");
            }
            left -= read;
        }
    }

    /** The hops after the receiving host, and the payload length. */
    record Request(InetAddress[] hops, long length) {
        static Request read(DataInputStream in) throws IOException {
            int count = in.readUnsignedByte();
            InetAddress[] hops = new InetAddress[count];
            for (int i = 0; i < count; i++) {
                byte[] address = new byte[4];
                in.readFully(address);
                hops[i] = InetAddress.getByAddress(address);
            }
            return new Request(hops, in.readLong());
        }

        Request rest() {
            InetAddress[] rest = new InetAddress[hops.length - 1];
            System.arraycopy(hops, 1, rest, 0, rest.length);
            return new Request(rest, length);
        }

        void write(OutputStream stream) throws IOException {
            DataOutputStream out = new DataOutputStream(stream);
            out.writeByte(hops.length);
            for (InetAddress hop : hops) {
                out.write(hop.getAddress());
            }
            out.writeLong(length);
        }
    }
}
