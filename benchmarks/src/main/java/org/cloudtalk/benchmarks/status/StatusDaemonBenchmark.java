package org.cloudtalk.benchmarks.status;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.benchmarks.BenchArgs;
import org.cloudtalk.status.cli.StatusDaemonMain;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;

/**
 * How much one status daemon sustains on one core. Starts the daemon as its own process pinned to CPU 0 with a
 * 64 MiB heap, and drives it from this process (run it pinned to CPU 1) over loopback with authenticated
 * single-endpoint requests:
 *
 * <ul>
 *   <li>latency: one request outstanding at a time, round-trip p50/p99 (client time included);
 *   <li>throughput: a window of requests outstanding, replies per second.
 * </ul>
 *
 * Each phase runs {@code rounds} times; the report gives every round and the median. The daemon's per-source rate
 * limit is raised for the run, since all load comes from one address.
 */
public final class StatusDaemonBenchmark {
    private static final int WINDOW = 64;

    private StatusDaemonBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = BenchArgs.count(args, 0, "ROUNDS", 3);
        int seconds = BenchArgs.count(args, 1, "SECONDS", 10);
        Path dir = Files.createTempDirectory("status-bench");
        byte[] key = "benchmark-key-0123456789abcdef".getBytes();
        Files.write(dir.resolve("key"), key);
        int port = 20_000 + ThreadLocalRandom.current().nextInt(10_000);
        Files.writeString(
                dir.resolve("daemon.properties"),
                String.join(
                        "\n",
                        "key.file=" + dir.resolve("key"),
                        "bind=127.0.0.1",
                        "port=" + port,
                        "endpoints=127.0.0.1",
                        "interface=lo",
                        "disk.path=/",
                        "rate.limit.per.source=10000000",
                        "rate.limit.burst=100000",
                        "counters.log.interval.s=0",
                        ""));
        Process daemon = new ProcessBuilder(
                        "taskset",
                        "-c",
                        "0",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-Xms64m",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        StatusDaemonMain.class.getName(),
                        "--config",
                        dir.resolve("daemon.properties").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("daemon.log").toFile())
                .start();
        try {
            StatusCodec codec = new StatusCodec(new MessageAuthenticator(key));
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
            waitUntilAnswering(codec, target);
            System.out.printf(Locale.ROOT, "warm-up: %,.0f replies/s%n", throughput(codec, target, 5));
            List<double[]> latencies = new ArrayList<>();
            List<Double> rates = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                double[] latency = latency(codec, target, 20_000);
                double rate = throughput(codec, target, seconds);
                latencies.add(latency);
                rates.add(rate);
                System.out.printf(
                        Locale.ROOT,
                        "round %d: p50 %.1f us, p99 %.1f us, throughput %,.0f replies/s%n",
                        round,
                        latency[0],
                        latency[1],
                        rate);
            }
            System.out.printf(
                    Locale.ROOT,
                    "median of %d rounds: p50 %.1f us, p99 %.1f us, throughput %,.0f replies/s%n",
                    rounds,
                    median(latencies.stream().mapToDouble(l -> l[0]).toArray()),
                    median(latencies.stream().mapToDouble(l -> l[1]).toArray()),
                    median(rates.stream().mapToDouble(Double::doubleValue).toArray()));
            System.out.println("daemon " + memory(daemon.pid()) + " (heap capped by -Xmx64m)");
        } finally {
            daemon.destroy();
            daemon.waitFor(10, TimeUnit.SECONDS);
            System.out.println("daemon log: "
                    + Files.readString(dir.resolve("daemon.log"))
                            .lines()
                            .filter(line -> line.contains("counters"))
                            .findFirst()
                            .orElse("(no counters line)"));
        }
    }

    private static void waitUntilAnswering(StatusCodec codec, InetSocketAddress target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (DatagramChannel channel = DatagramChannel.open()) {
                channel.connect(target);
                channel.socket().setSoTimeout(200);
                if (roundTrip(codec, channel, ThreadLocalRandom.current().nextLong(), ByteBuffer.allocate(2048))) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the daemon did not answer within 30 s");
    }

    /** p50 and p99 round trip in microseconds, one request at a time. */
    private static double[] latency(StatusCodec codec, InetSocketAddress target, int requests) throws Exception {
        double[] micros = new double[requests];
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.connect(target);
            channel.socket().setSoTimeout(1000);
            ByteBuffer buffer = ByteBuffer.allocate(2048);
            long id = ThreadLocalRandom.current().nextLong();
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                if (!roundTrip(codec, channel, id++, buffer)) {
                    throw new IllegalStateException("no reply to request " + i);
                }
                micros[i] = (System.nanoTime() - start) / 1e3;
            }
        }
        Arrays.sort(micros);
        return new double[] {micros[requests / 2], micros[(int) (requests * 0.99)]};
    }

    private static boolean roundTrip(StatusCodec codec, DatagramChannel channel, long id, ByteBuffer buffer)
            throws IOException {
        channel.write(ByteBuffer.wrap(request(codec, id)));
        buffer.clear();
        try {
            int length = readBlocking(channel, buffer);
            StatusReply reply = codec.decodeReply(buffer.array(), length);
            return reply.requestId() == id;
        } catch (java.net.SocketTimeoutException | WireException e) {
            return false;
        }
    }

    private static int readBlocking(DatagramChannel channel, ByteBuffer buffer) throws IOException {
        java.net.DatagramPacket packet = new java.net.DatagramPacket(buffer.array(), buffer.capacity());
        channel.socket().receive(packet);
        return packet.getLength();
    }

    /** Replies per second with {@link #WINDOW} requests outstanding (a lost reply frees its slot after 50 ms). */
    private static double throughput(StatusCodec codec, InetSocketAddress target, int seconds) throws Exception {
        try (DatagramChannel channel = DatagramChannel.open();
                Selector selector = Selector.open()) {
            channel.connect(target);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            ByteBuffer buffer = ByteBuffer.allocate(2048);
            long id = ThreadLocalRandom.current().nextLong();
            int outstanding = 0;
            long replies = 0;
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long lastReply = start;
            while (System.nanoTime() < end) {
                while (outstanding < WINDOW) {
                    channel.write(ByteBuffer.wrap(request(codec, id++)));
                    outstanding++;
                }
                selector.select(1);
                selector.selectedKeys().clear();
                buffer.clear();
                while (channel.receive(buffer) != null) {
                    buffer.flip();
                    try {
                        codec.decodeReply(buffer.array(), buffer.limit());
                        replies++;
                        outstanding--;
                        lastReply = System.nanoTime();
                    } catch (WireException e) {
                        throw new IllegalStateException("bad reply: " + e.getMessage());
                    }
                    buffer.clear();
                }
                if (System.nanoTime() - lastReply > TimeUnit.MILLISECONDS.toNanos(50)) {
                    outstanding = 0; // losses: refill the window
                    lastReply = System.nanoTime();
                }
            }
            return replies / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static byte[] request(StatusCodec codec, long id) {
        return codec.encodeRequest(
                new StatusRequest(id, System.currentTimeMillis(), List.of(java.net.InetAddress.getLoopbackAddress())));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String memory(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(line -> line.startsWith("VmRSS") || line.startsWith("VmHWM"))
                    .map(line -> line.replaceAll("\\s+", " "))
                    .reduce((a, b) -> a + ", " + b)
                    .orElse("memory unknown");
        } catch (IOException e) {
            return "memory unknown";
        }
    }
}
