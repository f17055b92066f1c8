package org.cloudtalk.status.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.KeyFile;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;

/**
 * {@code cloudtalk status probe HOST:PORT --key-file F [--endpoint IP]... [--timeout-ms N]}: sends one authenticated
 * request and prints the reply as JSON. Exit codes: 0 answered, 3 no reply in time, 4 a reply that fails checks,
 * 64 usage, 78 configuration (key).
 */
public final class StatusProbe {
    static final int NO_REPLY = 3;
    static final int BAD_REPLY = 4;
    private static final String USAGE =
            "usage: cloudtalk status probe HOST:PORT --key-file FILE [--endpoint IP]... [--timeout-ms N]";

    private StatusProbe() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the probe with the given streams; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Arguments arguments;
        InetSocketAddress target;
        List<InetAddress> endpoints = new ArrayList<>();
        int timeoutMillis;
        try {
            arguments = Arguments.parse(args, Set.of("key-file", "endpoint", "timeout-ms"));
            if (arguments.positional().size() != 1 || arguments.last("key-file") == null) {
                throw new Arguments.UsageException("need HOST:PORT and --key-file");
            }
            target = socketAddress(arguments.positional().get(0));
            for (String endpoint : arguments.all("endpoint")) {
                endpoints.add(literal(endpoint));
            }
            timeoutMillis =
                    arguments.last("timeout-ms") == null ? 1000 : Integer.parseInt(arguments.last("timeout-ms"));
        } catch (Arguments.UsageException | IllegalArgumentException e) {
            err.println("status probe: " + e.getMessage() + "\n" + USAGE);
            return 64;
        }
        StatusCodec codec;
        try {
            codec = new StatusCodec(new MessageAuthenticator(KeyFile.read(Path.of(arguments.last("key-file")))));
        } catch (IOException | IllegalArgumentException e) {
            err.println("status probe: bad key file " + arguments.last("key-file") + ": " + e.getMessage());
            return 78;
        }
        long start = System.nanoTime();
        try {
            StatusReply reply = ask(codec, target, endpoints, timeoutMillis);
            out.println(json(reply, (System.nanoTime() - start) / 1000));
            return 0;
        } catch (WireException e) {
            err.println("status probe: bad reply from " + target + ": " + e.getMessage());
            return BAD_REPLY;
        } catch (SocketTimeoutException e) {
            err.println("status probe: no reply from " + target + " within " + timeoutMillis + " ms");
            return NO_REPLY;
        } catch (IOException e) {
            err.println("status probe: " + e.getMessage());
            return NO_REPLY;
        }
    }

    /**
     * Sends one authenticated request for {@code endpoints} to {@code target} and waits up to {@code timeoutMillis}
     * for its reply (late replies to other requests are skipped).
     *
     * @throws SocketTimeoutException if no reply came in time
     * @throws WireException if a reply fails its checks
     */
    public static StatusReply ask(
            StatusCodec codec, InetSocketAddress target, List<InetAddress> endpoints, int timeoutMillis)
            throws IOException, WireException {
        long requestId = new SecureRandom().nextLong();
        byte[] request = codec.encodeRequest(new StatusRequest(requestId, System.currentTimeMillis(), endpoints));
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(timeoutMillis);
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            socket.send(new DatagramPacket(request, request.length, target));
            byte[] buffer = new byte[WireFormat.MAX_DATAGRAM + 1];
            while (true) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                socket.receive(packet);
                StatusReply reply = codec.decodeReply(buffer, packet.getLength());
                if (reply.requestId() == requestId) {
                    return reply;
                }
                // A late answer to someone else's request: keep waiting for ours.
                socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
        }
    }

    static String json(StatusReply reply, long roundTripMicros) {
        StringBuilder out = new StringBuilder();
        out.append("{\"requestId\":").append(reply.requestId());
        out.append(",\"daemonTimeMillis\":").append(reply.timestampMillis());
        out.append(",\"roundTripMicros\":").append(roundTripMicros);
        out.append(",\"endpoints\":[");
        for (int i = 0; i < reply.endpoints().size(); i++) {
            EndpointStatus s = reply.endpoints().get(i);
            out.append(i == 0 ? "" : ",");
            out.append("{\"endpoint\":\"").append(s.endpoint().getHostAddress()).append('"');
            out.append(",\"known\":").append(s.known());
            out.append(",\"sampleAgeMillis\":").append(s.sampleAgeMillis());
            out.append(",\"nicRxCapacityBitsPerSecond\":").append(s.nicRxCapacityBitsPerSecond());
            out.append(",\"nicRxUseBitsPerSecond\":").append(s.nicRxUseBitsPerSecond());
            out.append(",\"nicTxCapacityBitsPerSecond\":").append(s.nicTxCapacityBitsPerSecond());
            out.append(",\"nicTxUseBitsPerSecond\":").append(s.nicTxUseBitsPerSecond());
            out.append(",\"diskReadCapacityBytesPerSecond\":").append(s.diskReadCapacityBytesPerSecond());
            out.append(",\"diskReadUseBytesPerSecond\":").append(s.diskReadUseBytesPerSecond());
            out.append(",\"diskWriteCapacityBytesPerSecond\":").append(s.diskWriteCapacityBytesPerSecond());
            out.append(",\"diskWriteUseBytesPerSecond\":").append(s.diskWriteUseBytesPerSecond());
            out.append('}');
        }
        return out.append("]}").toString();
    }

    private static InetSocketAddress socketAddress(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected HOST:PORT, not " + text);
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = Integer.parseInt(text.substring(colon + 1));
        return new InetSocketAddress(literal(host), port);
    }

    private static InetAddress literal(String text) {
        if (!text.matches("\\d{1,3}(\\.\\d{1,3}){3}") && text.indexOf(':') < 0) {
            throw new IllegalArgumentException("not an IP address literal: " + text);
        }
        try {
            return InetAddress.getByName(text);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + text);
        }
    }
}
