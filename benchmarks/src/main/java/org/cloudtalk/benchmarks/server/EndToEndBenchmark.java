package org.cloudtalk.benchmarks.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.benchmarks.BenchArgs;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;

/**
 * End to end on this machine: 100 status daemons (one child process, on 127.0.0.1-100), the CloudTalk server (another
 * child process) and concurrent keep-alive HTTP clients here. Each query places 2 replicas among the 100 hosts with the
 * heuristic, so without reply reuse every query gathers from all 100 daemons. Reports p50/p99 latency seen by the
 * clients and the sustained queries/s, with reuse on (250 ms) and off.
 */
public final class EndToEndBenchmark {
    private static final int DAEMONS = 100;

    private EndToEndBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = BenchArgs.count(args, 0, "SECONDS", 10);
        int clients = BenchArgs.count(args, 1, "CLIENTS", 8);
        Path dir = Files.createTempDirectory("e2e-bench");
        Path key = dir.resolve("key");
        Files.writeString(key, "end-to-end-benchmark-key-0123456789");
        int daemonPort = ChildJvm.freeUdpPort();
        try (ChildJvm daemons = ChildJvm.start(
                dir.resolve("daemons.log"),
                "256m",
                Daemons.class.getName(),
                Integer.toString(DAEMONS),
                Integer.toString(daemonPort),
                key.toString())) {
            daemons.awaitLogLine("ready");
            StringBuilder candidates = new StringBuilder();
            for (int i = 1; i <= DAEMONS; i++) {
                candidates.append(i == 1 ? "" : " ").append("127.0.0.").append(i);
            }
            String query = "r2 = r3 = (" + candidates + ")\nf1 127.0.0.1 -> r2 size 256M\n"
                    + "f2 r2 -> r3 size sz(f1) transfer t(f1)";
            System.out.printf(
                    Locale.ROOT, "%d daemons, %d keep-alive clients, %d s per run%n", DAEMONS, clients, seconds);
            for (int reuseMillis : new int[] {250, 0}) {
                try (ChildJvm.Server server = ChildJvm.startServer(
                        dir,
                        "server-" + reuseMillis + ".properties",
                        "status.key.file=" + key,
                        "locator.port=" + daemonPort,
                        "status.reuse.ms=" + reuseMillis,
                        "gather.wait.ms=20",
                        "reservation.hold.ms=0",
                        "limits.queries.per.second=10000000",
                        "limits.burst=10000000",
                        "workers=16")) {
                    int port = server.port();
                    load(port, query, clients, 3); // warm-up
                    // Latency of one query at a time, and what the server sustains with every client busy.
                    for (int concurrency : new int[] {1, clients}) {
                        Result result = load(port, query, concurrency, seconds);
                        System.out.printf(
                                Locale.ROOT,
                                "reuse %s, %d client%s: p50 %.2f ms, p99 %.2f ms, %,.0f queries/s "
                                        + "(%,d answered, %d errors: %s)%n",
                                reuseMillis > 0 ? reuseMillis + " ms" : "off",
                                concurrency,
                                concurrency == 1 ? "" : "s",
                                result.p50Millis,
                                result.p99Millis,
                                result.perSecond,
                                result.answered,
                                result.errors.total(),
                                result.errors.summary());
                    }
                }
            }
        }
    }

    private record Result(double p50Millis, double p99Millis, double perSecond, long answered, ErrorCauses errors) {}

    private static Result load(int port, String query, int clients, int seconds) throws Exception {
        byte[] request = RawHttp.post("/v1/query?evaluator=heuristic", query);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<long[]> latencies = new ArrayList<>();
        ErrorCauses errors = new ErrorCauses();
        CountDownLatch done = new CountDownLatch(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            long[] samples = new long[2_000_000];
            latencies.add(samples);
            int index = c;
            Thread client = new Thread(() -> {
                int count = 0;
                try (Socket socket = new Socket("127.0.0.1", port)) {
                    socket.setTcpNoDelay(true);
                    OutputStream out = socket.getOutputStream();
                    InputStream in = new BufferedInputStream(socket.getInputStream());
                    while (System.nanoTime() < end && count < samples.length) {
                        long t0 = System.nanoTime();
                        out.write(request);
                        out.flush();
                        RawHttp.Response response = RawHttp.read(in);
                        if (response.status() != 200) {
                            errors.response(response);
                        }
                        samples[count++] = System.nanoTime() - t0;
                    }
                } catch (IOException e) {
                    errors.io(e);
                } finally {
                    latencies.set(index, Arrays.copyOf(samples, count));
                    done.countDown();
                }
            });
            client.start();
        }
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return new Result(
                all[all.length / 2] / 1e6,
                all[(int) (all.length * 0.99)] / 1e6,
                all.length / elapsed,
                all.length,
                errors);
    }

    /** The daemons' process: {@code DAEMONS PORT KEYFILE}; prints "ready" when all answer. */
    public static final class Daemons {
        private Daemons() {}

        public static void main(String[] args) throws Exception {
            int count = Integer.parseInt(args[0]);
            List<StatusDaemon> daemons = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                Map<String, String> properties = new HashMap<>();
                properties.put("key.file", args[2]);
                properties.put("bind", "127.0.0." + i);
                properties.put("port", args[1]);
                properties.put("endpoints", "127.0.0." + i);
                properties.put("interface", "lo");
                properties.put("disk.path", "/");
                properties.put("nic.capacity.mbps", Integer.toString(100 + 10 * i));
                properties.put("counters.log.interval.s", "0");
                daemons.add(StatusDaemon.start(DaemonConfig.from(properties)));
            }
            System.out.println("ready");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> daemons.forEach(StatusDaemon::close)));
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
