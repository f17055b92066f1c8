package org.cloudtalk.benchmarks.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.cloudtalk.benchmarks.BenchArgs;

/**
 * Tenant isolation: a victim tenant (127.0.0.1) sends 50 queries/s, within its quota, one at a time, and measures
 * their latency, alone and while
 * a flooding tenant (127.0.0.2) sends as fast as its connections allow, far above its quota of 100 queries/s. The
 * server runs as its own process with a status file (no daemons), so the measurement is the server's own fairness.
 */
public final class FloodBenchmark {
    private static final String QUERY = "src = (10.0.0.1 10.0.0.2 10.0.0.3)\nf1 disk -> src size 256M rate r(f2)\n"
            + "f2 src -> 10.0.0.9 size 256M rate r(f1)";

    private FloodBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = BenchArgs.count(args, 0, "SECONDS", 10);
        int flooders = BenchArgs.count(args, 1, "CONNECTIONS", 4);
        Path dir = Files.createTempDirectory("flood-bench");
        Path status = dir.resolve("status.json");
        StringBuilder hosts = new StringBuilder();
        for (String host : new String[] {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.9"}) {
            hosts.append(hosts.length() == 0 ? "" : ",")
                    .append('"')
                    .append(host)
                    .append("\": {")
                    .append("\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9, ")
                    .append("\"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}");
        }
        Files.writeString(status, "{\"hosts\": {" + hosts + "}}");
        try (ChildJvm.Server server = ChildJvm.startServer(
                dir,
                "server.properties",
                "status.file=" + status,
                "reservation.hold.ms=0",
                "limits.queries.per.second=100",
                "limits.burst=20",
                "workers=8")) {
            int port = server.port();
            ErrorCauses victimErrors = new ErrorCauses();
            ErrorCauses floodErrors = new ErrorCauses();
            victim(port, 3, victimErrors); // warm-up
            double[] alone = victim(port, seconds, victimErrors);
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicLong sent = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < flooders; i++) {
                Thread flooder = new Thread(() -> flood(port, flooding, sent, refused, floodErrors));
                flooder.start();
                threads.add(flooder);
            }
            Thread.sleep(1000);
            long sentBefore = sent.get();
            double[] flooded = victim(port, seconds, victimErrors);
            double floodRate = (sent.get() - sentBefore) / (double) seconds;
            flooding.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.printf(
                    Locale.ROOT,
                    "victim alone:        p50 %.2f ms, p99 %.2f ms (%d queries)%n",
                    alone[0],
                    alone[1],
                    (long) alone[2]);
            System.out.printf(
                    Locale.ROOT,
                    "victim under flood:  p50 %.2f ms, p99 %.2f ms (%d queries)%n",
                    flooded[0],
                    flooded[1],
                    (long) flooded[2]);
            System.out.printf(
                    Locale.ROOT,
                    "flood: %d connections, %,.0f requests/s against a quota of 100/s, %.1f%% refused "
                            + "with 429; victim p99 ratio %.2f%n",
                    flooders,
                    floodRate,
                    100.0 * refused.get() / Math.max(1, sent.get()),
                    flooded[1] / alone[1]);
            System.out.printf(
                    Locale.ROOT,
                    "victim errors: %s; flood errors other than 429: %s%n",
                    victimErrors.summary(),
                    floodErrors.summary());
        }
    }

    /** 50 queries/s, one at a time, from 127.0.0.1 for {@code seconds}: p50 and p99 in ms, and the count. */
    private static double[] victim(int port, int seconds, ErrorCauses victimErrors)
            throws IOException, InterruptedException {
        byte[] request = request();
        List<Long> latencies = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.1"), 0)) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            for (long next = System.nanoTime(); next < end; next += TimeUnit.MILLISECONDS.toNanos(20)) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long start = System.nanoTime();
                out.write(request);
                out.flush();
                RawHttp.Response response = RawHttp.read(in);
                if (response.status() != 200) {
                    victimErrors.response(response);
                }
                latencies.add(System.nanoTime() - start);
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new double[] {sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6, sorted.length
        };
    }

    private static void flood(
            int port, AtomicBoolean flooding, AtomicLong sent, AtomicLong refused, ErrorCauses errors) {
        byte[] request = request();
        try (Socket socket = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.2"), 0)) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            while (flooding.get()) {
                out.write(request);
                out.flush();
                sent.incrementAndGet();
                RawHttp.Response response = RawHttp.read(in);
                if (response.status() == 429) {
                    refused.incrementAndGet();
                } else if (response.status() != 200) {
                    errors.response(response);
                }
            }
        } catch (IOException e) {
            errors.io(e);
        }
    }

    private static byte[] request() {
        return RawHttp.post("/v1/query", QUERY);
    }
}
