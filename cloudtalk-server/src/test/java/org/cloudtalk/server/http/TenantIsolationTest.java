package org.cloudtalk.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;
import org.junit.jupiter.api.Test;

/**
 * A tenant cannot take the server from another: its excess queries are refused on the I/O thread (429) while it holds
 * its share of the workers, and another tenant is still answered. Tenants are client addresses: 127.0.0.2 and
 * 127.0.0.1 here.
 */
class TenantIsolationTest {
    private static final String SLOW = "f1 10.0.0.66 -> 10.0.0.2 size 1M";
    private static final String FAST = "f1 10.0.0.1 -> 10.0.0.2 size 1M";

    @Test
    void aBusyTenantIsRefusedWhileAnotherIsServed() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        StatusSource status = (addresses, wait) -> {
            if (addresses.contains(Address.parse("10.0.0.66"))) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS); // the slow tenant's query holds its worker
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            HostLoad idle = new HostLoad(1e8, 0, 1e8, 0, 1e8, 0, 1e8, 0);
            return new StatusSource.Gathered(
                    new ClusterState(Map.of("10.0.0.1", idle, "10.0.0.2", idle)),
                    addresses.size(),
                    addresses.size(),
                    0);
        };
        QueryService service = new QueryService(
                status,
                status,
                Duration.ofSeconds(30),
                TenantLimits.DEFAULT,
                Sampling.DEFAULT,
                new Reservations(Duration.ZERO));
        ExecutorService workers = Executors.newFixedThreadPool(2);
        ExecutorService clients = Executors.newCachedThreadPool();
        ApiHandler handler = new ApiHandler(
                service,
                new Admission(TenantLimits.DEFAULT, 1),
                workers,
                new ServerMetrics(() -> 0),
                Duration.ofSeconds(30));
        try (HttpApiServer server = HttpApiServer.start(
                new InetSocketAddress("127.0.0.1", 0), new ApiChannelInitializer(handler, 4096), 1)) {
            int port = server.localAddress().getPort();
            Future<Integer> stuck = clients.submit(() -> post(port, "127.0.0.2", SLOW));
            assertThat(entered.await(30, TimeUnit.SECONDS))
                    .as("the slow query reached its worker")
                    .isTrue();
            assertThat(post(port, "127.0.0.2", FAST)).isEqualTo(429);
            assertThat(post(port, "127.0.0.1", FAST)).isEqualTo(200);
            assertThat(stuck.isDone()).isFalse();
            release.countDown();
            assertThat(stuck.get(30, TimeUnit.SECONDS)).isEqualTo(200);
            assertThat(post(port, "127.0.0.2", FAST)).isEqualTo(200);
        } finally {
            release.countDown();
            workers.shutdownNow();
            clients.shutdownNow();
        }
    }

    /** One POST from the given local address; the status code. */
    static int post(int port, String from, String query) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port, InetAddress.getByName(from), 0)) {
            socket.setSoTimeout(30_000);
            byte[] body = query.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream()
                    .write(("POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
                                    + "\r\nConnection: close\r\n\r\n" + query)
                            .getBytes(StandardCharsets.UTF_8));
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String statusLine = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }
}
