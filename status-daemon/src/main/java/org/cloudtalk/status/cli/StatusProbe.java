package org.cloudtalk.status.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.KeyFile;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cloudtalk status probe HOST:PORT --key-file F [--endpoint IP]... [--timeout-ms N]}: sends one authenticated
 * request and prints the reply as JSON.
 */
@Command(
        name = "cloudtalk status probe",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        sortOptions = false,
        description = "Asks a status daemon once and prints its reply as JSON (the fields a status file takes).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:answered",
            "3:no reply in time (daemon down, or not this deployment's key)",
            "4:a reply that fails checks",
            "64:wrong command line",
            "78:unreadable key file"
        })
public final class StatusProbe implements Callable<Integer> {
    static final int NO_REPLY = Launchers.REFUSED;
    static final int BAD_REPLY = Launchers.UNAVAILABLE;

    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "the daemon's UDP address")
    private String daemon;

    @Option(names = "--key-file", required = true, paramLabel = "FILE", description = "the deployment's shared key")
    private Path keyFile;

    @Option(
            names = "--endpoint",
            paramLabel = "IP",
            description = "an endpoint to ask about (repeatable; default: all the daemon's endpoints)")
    private List<String> endpointTexts = List.of();

    @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "1000", description = "how long to wait")
    private int timeoutMillis;

    @Spec
    private CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;

    private StatusProbe(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the probe with the given streams; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Launchers.commandLine(new StatusProbe(out, err))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
    }

    @Override
    public Integer call() {
        InetSocketAddress target;
        List<InetAddress> endpoints = new ArrayList<>();
        try {
            target = socketAddress(daemon);
            for (String endpoint : endpointTexts) {
                endpoints.add(literal(endpoint));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (endpoints.size() > WireFormat.MAX_ENDPOINTS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "at most " + WireFormat.MAX_ENDPOINTS + " --endpoint per probe (one request), not "
                            + endpoints.size());
        }
        if (timeoutMillis <= 0) {
            throw new ParameterException(
                    spec.commandLine(), "Invalid value " + timeoutMillis + " for --timeout-ms: must be positive");
        }
        StatusCodec codec;
        try {
            codec = new StatusCodec(new MessageAuthenticator(KeyFile.read(keyFile)));
        } catch (IOException | IllegalArgumentException e) {
            err.println("status probe: Invalid value " + keyFile + " for --key-file: " + e.getMessage());
            return Launchers.CONFIG;
        }
        long start = System.nanoTime();
        try {
            StatusReply reply = ask(codec, target, endpoints, timeoutMillis);
            out.println(json(reply, (System.nanoTime() - start) / 1000));
            if (endpoints.isEmpty() && reply.endpoints().size() == WireFormat.MAX_ENDPOINTS) {
                err.println("status probe: the reply holds " + WireFormat.MAX_ENDPOINTS + " endpoints, the most one"
                        + " reply carries; the daemon may serve more: name them with --endpoint");
            }
            return 0;
        } catch (WireException e) {
            err.println("status probe: bad reply from " + target + ": " + e.getMessage());
            return BAD_REPLY;
        } catch (SocketTimeoutException e) {
            err.println("status probe: no reply from " + daemon + " within " + timeoutMillis
                    + " ms (is the daemon running there, with this deployment's key?)");
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
            throw new IllegalArgumentException(
                    "Invalid value " + text + " for HOST:PORT: expected an IP address and a port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "Invalid value " + text + " for HOST:PORT: the port must be a number from 1 to 65535");
        }
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
