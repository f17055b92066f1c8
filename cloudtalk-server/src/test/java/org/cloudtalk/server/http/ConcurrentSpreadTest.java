package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many concurrent clients against a real server: pseudo-reservations spread the answers over the pool. */
class ConcurrentSpreadTest {
    private static final int HOSTS = 10;
    private static final int CLIENTS = 16;
    private static final Pattern BINDING = Pattern.compile("\"(r[23])\":\"([0-9.]+)\"");

    @Test
    void sixteenClientsOnATenHostPoolGetNoHostOverTwiceItsFairShare(@TempDir Path temp) throws Exception {
        StringBuilder hosts = new StringBuilder();
        StringBuilder candidates = new StringBuilder();
        for (int i = 1; i <= HOSTS; i++) {
            hosts.append(i == 1 ? "" : ",")
                    .append("\"10.0.0.")
                    .append(i)
                    .append("\": {\"nicRxCapacityBitsPerSecond\": ")
                    .append((100 + 10 * i) * 1_000_000L)
                    .append(", \"nicTxCapacityBitsPerSecond\": ")
                    .append((100 + 10 * i) * 1_000_000L)
                    .append(", \"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}");
            candidates.append(i == 1 ? "" : " ").append("10.0.0.").append(i);
        }
        Path status = temp.resolve("status.json");
        Files.writeString(status, "{\"hosts\": {" + hosts + "}}");
        String query = "r2 = r3 = (" + candidates + ")\nf1 10.0.0.100 -> r2 size 256M\n"
                + "f2 r2 -> r3 size sz(f1) transfer t(f1)";
        byte[] request = ("POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + query.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + query)
                .getBytes(StandardCharsets.UTF_8);
        Map<String, LongAdder> named = new ConcurrentHashMap<>();
        AtomicInteger failures = new AtomicInteger();
        try (CloudTalkServer server = CloudTalkServer.start(ServerConfig.from(Map.of(
                "port", "0",
                "status.file", status.toString(),
                "reservation.hold.ms", "300",
                "workers", "32",
                "limits.queries.per.second", "1000000",
                "limits.burst", "1000000")))) {
            int port = server.localAddress().getPort();
            // Until 800 answers (or 20 s on a very busy machine): enough for each host's share to mean something.
            long end = System.nanoTime() + 20_000_000_000L;
            LongAdder answers = new LongAdder();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Thread client = new Thread(() -> {
                    try (Socket socket = new Socket("127.0.0.1", port)) {
                        socket.setSoTimeout(10_000);
                        OutputStream out = socket.getOutputStream();
                        InputStream in = new BufferedInputStream(socket.getInputStream());
                        while (answers.sum() < 800 && System.nanoTime() < end) {
                            out.write(request);
                            HttpConnectionTest.Response response = HttpConnectionTest.read(in);
                            if (response.status() != 200) {
                                failures.incrementAndGet();
                                continue;
                            }
                            answers.increment();
                            Matcher binding = BINDING.matcher(response.body());
                            while (binding.find()) {
                                named.computeIfAbsent(binding.group(2), unused -> new LongAdder())
                                        .increment();
                            }
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                });
                client.start();
                clients.add(client);
            }
            for (Thread client : clients) {
                client.join();
            }
        }
        long total = named.values().stream().mapToLong(LongAdder::sum).sum();
        double fairShare = (double) total / HOSTS;
        assertThat(failures).hasValue(0);
        assertThat(total).isGreaterThanOrEqualTo(400);
        assertThat(named).hasSize(HOSTS);
        assertThat(named.values())
                .allSatisfy(count -> assertThat(count.sum()).isLessThanOrEqualTo((long) (2 * fairShare)));
    }
}
