package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.status.StaticStatusSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed and oversized requests over real sockets: every connection ends in a well-formed HTTP response with an
 * expected status or a clean close, nothing is an internal error, and valid queries are answered afterwards.
 */
class HttpFuzzTest {
    private static final int CONNECTIONS = Integer.getInteger("fuzz.connections", 3_000);
    private static final Set<Integer> EXPECTED = Set.of(200, 400, 404, 405, 413, 422, 429, 431, 503);
    private static final String VALID_QUERY = "A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 1M";

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void survivesMalformedAndOversizedRequests(@TempDir Path temp) throws Exception {
        Path status = temp.resolve("status.json");
        Files.writeString(
                status,
                "{\"hosts\": {\"10.0.0.1\": {\"nicRxCapacityBitsPerSecond\": 1e9, "
                        + "\"nicTxCapacityBitsPerSecond\": 1e9, \"diskReadCapacityBytesPerSecond\": 1e8, "
                        + "\"diskWriteCapacityBytesPerSecond\": 1e8}}}");
        StaticStatusSource source = new StaticStatusSource(status);
        QueryService service = new QueryService(
                source,
                source,
                Duration.ofMillis(10),
                TenantLimits.DEFAULT,
                Sampling.DEFAULT,
                new Reservations(Duration.ZERO));
        ExecutorService workers = Executors.newFixedThreadPool(4);
        ServerMetrics metrics = new ServerMetrics(() -> 0);
        ApiHandler handler = new ApiHandler(
                service,
                new Admission(new TenantLimits(65_536, 1000, 100, 10_000, 1000, 1e9, 1_000_000), 8),
                workers,
                metrics,
                Duration.ofSeconds(2));
        Random random = new Random(Long.getLong("fuzz.seed", 20261120L));
        try (HttpApiServer server = HttpApiServer.start(
                new InetSocketAddress("127.0.0.1", 0), new ApiChannelInitializer(handler, 65_536), 1)) {
            int port = server.localAddress().getPort();
            int answered = 0;
            for (int i = 0; i < CONNECTIONS; i++) {
                byte[] request = request(random);
                String reply = exchange(port, request);
                if (reply.isEmpty()) {
                    continue; // closed without a response: allowed for input that is not HTTP at all
                }
                assertThat(reply).as("reply to request %d", i).startsWith("HTTP/1.1 ");
                int code = Integer.parseInt(reply.substring(9, 12));
                assertThat(EXPECTED)
                        .as("status %d for request %d:%n%s", code, i, preview(request))
                        .contains(code);
                answered++;
            }
            assertThat(answered).isGreaterThan(CONNECTIONS / 2);
            assertThat(metrics.outcome("internal_error")).isZero();
            assertThat(exchange(port, post(VALID_QUERY.getBytes(StandardCharsets.UTF_8), "/v1/query")))
                    .startsWith("HTTP/1.1 200");
        } finally {
            workers.shutdownNow();
        }
    }

    private static byte[] request(Random random) {
        byte[] valid = post(VALID_QUERY.getBytes(StandardCharsets.UTF_8), "/v1/query");
        return switch (random.nextInt(8)) {
            case 0 -> randomBytes(random, random.nextInt(300));
            case 1 -> flip(random, valid, 1 + random.nextInt(6));
            case 2 -> post(randomBytes(random, random.nextInt(200)), "/v1/query");
            case 3 -> post(new byte[70_000], "/v1/query"); // body over the limit
            case 4 -> ("GET /" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            case 5 -> ("POST /v1/query HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(9_000) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            case 6 -> ("POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: " + (random.nextBoolean() ? "-5" : "zz")
                            + "\r\n\r\nabc")
                    .getBytes(StandardCharsets.US_ASCII);
            default -> post(
                    flip(random, VALID_QUERY.getBytes(StandardCharsets.UTF_8), 1 + random.nextInt(4)),
                    random.nextBoolean() ? "/v1/query?evaluator=flow&explain=true" : "/v1/query?timeoutMs=50");
        };
    }

    private static byte[] post(byte[] body, String path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " + body.length
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Sends the bytes, half-closes, and reads whatever comes back until the server closes or 5 s pass. */
    private static String exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            try {
                socket.getOutputStream().write(request);
                socket.shutdownOutput();
            } catch (IOException e) {
                // the server may close early on an oversized request; read what it said
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    reply.write(buffer, 0, read);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server neither answered nor closed within 5 s", e);
            } catch (IOException e) {
                // connection reset after an early answer: keep what arrived
            }
            return reply.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] flip(Random random, byte[] data, int flips) {
        byte[] copy = data.clone();
        for (int i = 0; i < flips && copy.length > 0; i++) {
            copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return copy;
    }

    private static String preview(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
