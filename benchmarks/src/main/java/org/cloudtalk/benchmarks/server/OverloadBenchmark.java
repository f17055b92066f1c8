package org.cloudtalk.benchmarks.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.benchmarks.BenchArgs;

/**
 * The server under load and abuse (issue 16), as its own process with a status file of ten hosts (110-200 Mbit/s):
 *
 * <ol>
 *   <li>pile-up: 16 keep-alive clients query the 10-host pool as fast as they can, with the paper's 300 ms
 *       pseudo-reservation hold (no fade); reports how the answers spread over the hosts (the largest share over the
 *       fair one);
 *   <li>connection abuse: a victim tenant (127.0.0.1) sends 50 queries/s on its keep-alive connection, alone, while an
 *       attacker (127.0.0.2) holds {@code IDLE} idle connections (with a new connection tried meanwhile), and while
 *       the attacker trickles {@code SLOW} requests a header line per second; reports the victim's latency, the time
 *       to refuse a new connection and the server's connection metrics;
 *   <li>heavy queries: two attackers (127.0.0.2 and .3) keep 8 queries each in flight, each a 999-flow rate-coupled
 *       chain for the flow evaluator with a 1,000 ms deadline (issue 16's defect 1: such a query ran 5.7 s, and
 *       another tenant's 1,000 ms query waited 58-115 s behind 16 of them), while the victim sends its 50 queries/s;
 *       reports the victim's latency and the attackers' answers by status.
 * </ol>
 */
public final class OverloadBenchmark {
    private static final int HOSTS = 10;
    private static final Pattern BINDING = Pattern.compile("\"r[23]\":\"([0-9.]+)\"");
    private static final Pattern METRIC = Pattern.compile("(?m)^(cloudtalk_http_[a-z_]+) (\\d+)$");

    private OverloadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = BenchArgs.count(args, 0, "SECONDS", 10);
        int idle = BenchArgs.count(args, 1, "IDLE", 3_000);
        int slow = BenchArgs.count(args, 2, "SLOW", 50);
        Path dir = Files.createTempDirectory("overload-bench");
        StringBuilder hosts = new StringBuilder();
        StringBuilder candidates = new StringBuilder();
        for (int i = 1; i <= HOSTS; i++) {
            long bits = (100 + 10L * i) * 1_000_000;
            hosts.append(i == 1 ? "" : ",")
                    .append(String.format(
                            Locale.ROOT,
                            "\"10.0.0.%d\": {\"nicRxCapacityBitsPerSecond\": %d, \"nicTxCapacityBitsPerSecond\": %d, "
                                    + "\"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}",
                            i,
                            bits,
                            bits));
            candidates.append(i == 1 ? "" : " ").append("10.0.0.").append(i);
        }
        Path status = dir.resolve("status.json");
        Files.writeString(
                status,
                "{\"hosts\": {" + hosts + ", \"10.0.0.100\": {\"nicRxCapacityBitsPerSecond\": 1e9, "
                        + "\"nicTxCapacityBitsPerSecond\": 1e9, \"diskReadCapacityBytesPerSecond\": 2e8, "
                        + "\"diskWriteCapacityBytesPerSecond\": 2e8}}}");
        String query = "r2 = r3 = (" + candidates + ")\nf1 10.0.0.100 -> r2 size 256M\n"
                + "f2 r2 -> r3 size sz(f1) transfer t(f1)";
        try (ChildJvm.Server server = ChildJvm.startServer(
                dir,
                "server.properties",
                "status.file=" + status,
                // The paper's hold, ending at once: what the recorded answer spread was measured with.
                "reservation.hold.ms=300",
                "reservation.fade.ms=0",
                "http.request.deadline.ms=2000",
                "limits.queries.per.second=10000000",
                "limits.burst=10000000",
                "workers=32")) {
            int port = server.port();
            byte[] request = RawHttp.post("/v1/query", query);
            spread(port, request, 3); // warm-up
            spread(port, request, seconds);

            try (Socket victim = connect(port, "127.0.0.1")) {
                victim(victim, request, 3); // warm-up
                double[] alone = victim(victim, request, seconds);
                print("victim alone", alone);

                // Idle connections: the cap refuses the excess at once; the victim's connection is unaffected.
                List<Socket> held = new ArrayList<>();
                for (int i = 0; i < idle; i++) {
                    held.add(connect(port, "127.0.0.2"));
                }
                Thread.sleep(1000);
                List<Long> refusals = new ArrayList<>();
                int refusedStatus = 0;
                for (int i = 0; i < 9; i++) {
                    long start = System.nanoTime();
                    try (Socket late = connect(port, "127.0.0.3")) {
                        // A refusal comes unasked; a server without a cap would wait for a request instead.
                        late.setSoTimeout(2_000);
                        InputStream in = new BufferedInputStream(late.getInputStream());
                        try {
                            refusedStatus = RawHttp.read(in).status();
                        } catch (SocketTimeoutException e) {
                            late.getOutputStream()
                                    .write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                                            .getBytes(StandardCharsets.US_ASCII));
                            refusedStatus = RawHttp.read(in).status();
                        }
                    }
                    refusals.add(System.nanoTime() - start);
                }
                refusals.sort(null);
                print("victim, " + idle + " idle connections open", victim(victim, request, seconds));
                System.out.printf(
                        Locale.ROOT,
                        "a new connection meanwhile: HTTP %d, median %.1f ms to that answer (9 tries)%n",
                        refusedStatus,
                        refusals.get(4) / 1e6);
                System.out.println("server metrics: " + metrics(victim));
                for (Socket socket : held) {
                    socket.close();
                }

                // Slow requests: each is cut off at the request deadline (2 s here), whatever its pace.
                AtomicBoolean attacking = new AtomicBoolean(true);
                List<Thread> slowlorises = new ArrayList<>();
                LongAdder cutOff = new LongAdder();
                for (int i = 0; i < slow; i++) {
                    Thread thread = new Thread(() -> slowloris(port, attacking, cutOff));
                    thread.start();
                    slowlorises.add(thread);
                }
                print("victim, " + slow + " slow requests trickling", victim(victim, request, seconds));
                attacking.set(false);
                for (Thread thread : slowlorises) {
                    thread.join();
                }
                System.out.printf(Locale.ROOT, "slow requests cut off by the server: %d%n", cutOff.sum());
                System.out.println("server metrics: " + metrics(victim));

                heavy(port, victim, request, seconds);
            }
        }
    }

    /** Two attackers keep 8 heavy queries each in flight while the victim sends its own. */
    private static void heavy(int port, Socket victim, byte[] request, int seconds) throws Exception {
        StringBuilder chain = new StringBuilder("X = (10.0.0.1 10.0.0.2)\nf1 X -> 10.0.0.3 size 1G\n");
        for (int f = 2; f <= 999; f++) {
            chain.append(String.format(
                    Locale.ROOT,
                    "f%d 10.0.0.%d -> 10.0.0.%d size 1G rate r(f%d)%n",
                    f,
                    1 + f % HOSTS,
                    1 + (f + 1) % HOSTS,
                    f - 1));
        }
        byte[] heavy = RawHttp.post("/v1/query?evaluator=flow&timeoutMs=1000", chain.toString());
        AtomicBoolean attacking = new AtomicBoolean(true);
        Map<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();
        List<Thread> attackers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            String from = i % 2 == 0 ? "127.0.0.2" : "127.0.0.3";
            Thread attacker = new Thread(() -> {
                try (Socket socket = connect(port, from)) {
                    OutputStream out = socket.getOutputStream();
                    InputStream in = new BufferedInputStream(socket.getInputStream());
                    while (attacking.get()) {
                        out.write(heavy);
                        byStatus.computeIfAbsent(RawHttp.read(in).status(), unused -> new LongAdder())
                                .increment();
                    }
                } catch (IOException e) {
                    byStatus.computeIfAbsent(-1, unused -> new LongAdder()).increment();
                }
            });
            attacker.start();
            attackers.add(attacker);
        }
        Thread.sleep(1000);
        print("victim, 16 heavy queries in flight from two tenants", victim(victim, request, seconds));
        attacking.set(false);
        for (Thread attacker : attackers) {
            attacker.join();
        }
        Map<Integer, Long> counts = new TreeMap<>();
        byStatus.forEach((status, count) -> counts.put(status, count.sum()));
        System.out.println("heavy queries answered, by HTTP status (-1: connection lost): " + counts);
    }

    private static void print(String what, double[] victim) {
        System.out.printf(
                Locale.ROOT,
                "%s: p50 %.2f ms, p99 %.2f ms (%d queries, %d errors)%n",
                what,
                victim[0],
                victim[1],
                (long) victim[2],
                (long) victim[3]);
    }

    /** The server's connection metrics, read on the victim's connection. */
    private static String metrics(Socket victim) throws IOException {
        victim.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        String metrics =
                RawHttp.read(new BufferedInputStream(victim.getInputStream())).body();
        Matcher metric = METRIC.matcher(metrics);
        StringBuilder line = new StringBuilder();
        while (metric.find()) {
            line.append(line.length() == 0 ? "" : " ")
                    .append(metric.group(1))
                    .append('=')
                    .append(metric.group(2));
        }
        return line.toString();
    }

    /** 16 clients as fast as they can for {@code seconds}: how the answers spread over the pool. */
    private static void spread(int port, byte[] request, int seconds) throws InterruptedException {
        int clients = 16;
        Map<String, LongAdder> named = new ConcurrentHashMap<>();
        ErrorCauses errors = new ErrorCauses();
        LongAdder answers = new LongAdder();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Thread client = new Thread(() -> {
                try (Socket socket = connect(port, "127.0.0.1")) {
                    OutputStream out = socket.getOutputStream();
                    InputStream in = new BufferedInputStream(socket.getInputStream());
                    while (System.nanoTime() < end) {
                        out.write(request);
                        RawHttp.Response response = RawHttp.read(in);
                        if (response.status() != 200) {
                            errors.response(response);
                            continue;
                        }
                        answers.increment();
                        Matcher binding = BINDING.matcher(response.body());
                        while (binding.find()) {
                            named.computeIfAbsent(binding.group(1), unused -> new LongAdder())
                                    .increment();
                        }
                    }
                } catch (IOException e) {
                    errors.io(e);
                }
            });
            client.start();
            threads.add(client);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Map<String, Long> counts = new TreeMap<>();
        named.forEach((host, count) -> counts.put(host, count.sum()));
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        double fair = (double) total / HOSTS;
        long max = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long min = counts.size() < HOSTS
                ? 0
                : counts.values().stream().mapToLong(Long::longValue).min().orElse(0);
        System.out.printf(
                Locale.ROOT,
                "spread: %d clients, %,.0f queries/s, %,d answers naming %,d hosts; per host %,d..%,d, largest share "
                        + "%.2fx fair (errors: %s)%n",
                clients,
                answers.sum() / (double) seconds,
                answers.sum(),
                total,
                min,
                max,
                max / fair,
                errors.summary());
    }

    /** 50 queries/s on the victim's connection for {@code seconds}: p50, p99 (ms), count, errors. */
    private static double[] victim(Socket socket, byte[] request, int seconds)
            throws IOException, InterruptedException {
        OutputStream out = socket.getOutputStream();
        InputStream in = new BufferedInputStream(socket.getInputStream());
        List<Long> latencies = new ArrayList<>();
        long errors = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (long next = System.nanoTime(); next < end; next += TimeUnit.MILLISECONDS.toNanos(20)) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            long start = System.nanoTime();
            out.write(request);
            if (RawHttp.read(in).status() != 200) {
                errors++;
            }
            latencies.add(System.nanoTime() - start);
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new double[] {
            sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6, sorted.length, errors
        };
    }

    /** Sends a request one header line per second until the server cuts it off, then starts again. */
    private static void slowloris(int port, AtomicBoolean attacking, LongAdder cutOff) {
        while (attacking.get()) {
            try (Socket socket = connect(port, "127.0.0.2")) {
                OutputStream out = socket.getOutputStream();
                out.write("POST /v1/query HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                for (int line = 0; attacking.get(); line++) {
                    Thread.sleep(1000);
                    out.write(("X-Slow-" + line + ": 1\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    if (socket.getInputStream().available() > 0) {
                        cutOff.increment(); // a response (408 or 503) before the request was complete
                        break;
                    }
                }
            } catch (IOException e) {
                cutOff.increment(); // closed under it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Socket connect(int port, String from) throws IOException {
        Socket socket = new Socket("127.0.0.1", port, InetAddress.getByName(from), 0);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        return socket;
    }
}
