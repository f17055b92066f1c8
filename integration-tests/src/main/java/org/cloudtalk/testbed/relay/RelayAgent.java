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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The copy agent of one emulated host: forwards a stream along a chain of hosts as an HDFS write pipeline does, each
 * hop passing on what it receives while it receives it, the last one acknowledging back up the chain once it has
 * everything. A controller (the experiment, over the unshaped management link) asks the chain's first host to send;
 * the answer is the copy's time from the first connection to the last acknowledgement.
 *
 * <p>It also gathers, as a search aggregator does: asked by the controller, it opens a connection to each of a list
 * of hosts, then asks them all at once for a reply of the same length and times until the last reply is in (an incast
 * into this host's link).
 *
 * <p>Wire format (big-endian): a request is a type byte, the number of hops after this one, their IPv4 addresses
 * and the payload length. {@code C} (from the controller): send {@code length} bytes along the hops, then answer
 * the elapsed nanoseconds as a long. {@code D} (from the previous hop): the payload follows; forward it to the next
 * hop if there is one, then acknowledge with one byte. {@code G} (from the controller): gather {@code length} bytes
 * from each of the hops, then answer the elapsed nanoseconds. {@code S} (from a gathering host, no hops): wait for one
 * byte, then send {@code length} bytes. Any failure closes the connection, which the controller sees as a failed copy
 * or gather.
 */
public final class RelayAgent {
    static final byte COMMAND = 'C';
    static final byte DATA = 'D';
    static final byte ACK = 'A';
    static final byte GATHER = 'G';
    static final byte SERVE = 'S';
    /**
     * Between opening the gather's connections and asking: the connections' handshakes and their acknowledgements are
     * over, as between servers that keep connections open (the packet simulator waits the same).
     */
    private static final long QUIET_MILLIS = 100;

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
            } else if (type == GATHER) {
                out.writeLong(gather(request, port));
                out.flush();
            } else if (type == SERVE) {
                if (in.read() < 0) {
                    return;
                }
                out.write(new byte[(int) request.length()]);
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

    /**
     * Connects to every hop, asks each for {@code request.length()} bytes at once, and returns the nanoseconds from the
     * first ask until the last byte of the last reply arrived.
     */
    private static long gather(Request request, int port) throws IOException {
        int senders = request.hops().length;
        List<Socket> sockets = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(senders);
        try {
            for (InetAddress hop : request.hops()) {
                Socket socket = new Socket();
                sockets.add(socket);
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(hop, port), 5000);
                DataOutputStream ask = new DataOutputStream(socket.getOutputStream());
                ask.writeByte(SERVE);
                new Request(new InetAddress[0], request.length()).write(ask);
                ask.flush();
            }
            pause(QUIET_MILLIS);
            CountDownLatch ready = new CountDownLatch(senders);
            List<Future<Long>> arrivals = new ArrayList<>();
            for (Socket socket : sockets) {
                arrivals.add(readers.submit(() -> {
                    ready.countDown();
                    drain(socket.getInputStream(), request.length(), new byte[CHUNK]);
                    return System.nanoTime();
                }));
            }
            ready.await();
            long start = System.nanoTime();
            for (Socket socket : sockets) {
                socket.getOutputStream().write(1);
            }
            long last = start;
            for (Future<Long> arrival : arrivals) {
                last = Math.max(last, arrival.get());
            }
            return last - start;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException("a reply failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            readers.shutdownNow();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
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
