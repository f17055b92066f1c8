package org.cloudtalk.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.KeyFile;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scatter-gather against three real status daemons on 127.0.0.1-3 (same port, the in-VM layout). */
class UdpStatusSourceTest {
    private static final int PORT = 17_000 + (int) (ProcessHandle.current().pid() % 1000);

    @TempDir
    static Path temp;

    static final List<StatusDaemon> daemons = new ArrayList<>();
    static StatusCodec codec;

    @BeforeAll
    static void startDaemons() throws Exception {
        Path key = temp.resolve("key");
        Files.writeString(key, "gatherer-test-key-0123456789");
        codec = new StatusCodec(new MessageAuthenticator(KeyFile.read(key)));
        for (int i = 1; i <= 3; i++) {
            Map<String, String> properties = new HashMap<>();
            properties.put("key.file", key.toString());
            properties.put("bind", "127.0.0." + i);
            properties.put("port", Integer.toString(PORT));
            properties.put("endpoints", "127.0.0." + i);
            properties.put("interface", "lo");
            properties.put("disk.path", temp.toString());
            properties.put("nic.capacity.mbps", Integer.toString(100 * i));
            properties.put("counters.log.interval.s", "0");
            daemons.add(StatusDaemon.start(DaemonConfig.from(properties)));
        }
    }

    @AfterAll
    static void stopDaemons() {
        daemons.forEach(StatusDaemon::close);
    }

    @Test
    void asksEveryDaemonAtOnceAndTreatsSilenceAsHeavyLoad() throws Exception {
        try (UdpStatusSource source = new UdpStatusSource(new SameHostLocator(PORT), codec, Duration.ZERO)) {
            long start = System.nanoTime();
            StatusSource.Gathered gathered =
                    source.gather(hosts("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.9"), Duration.ofMillis(300));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(gathered.asked()).isEqualTo(4);
            assertThat(gathered.answered()).isEqualTo(3);
            assertThat(gathered.state().load("127.0.0.2").rxCapacity()).isEqualTo(200e6 / 8);
            assertThat(gathered.state().load("127.0.0.3").txCapacity()).isEqualTo(300e6 / 8);
            assertThat(gathered.state().load("127.0.0.9")).isEqualTo(HostLoad.UNREACHABLE);
            assertThat(elapsedMillis).isLessThan(2_000); // bounded by the wait, not by the silent host
            assertThat(source.timeouts()).isEqualTo(1);
        }
    }

    @Test
    void reusesRecentRepliesWithinTheAgeLimitOnly() throws Exception {
        try (UdpStatusSource source = new UdpStatusSource(new SameHostLocator(PORT), codec, Duration.ofSeconds(30))) {
            assertThat(source.gather(hosts("127.0.0.1"), Duration.ofSeconds(1)).answered())
                    .isEqualTo(1);
            StatusSource.Gathered second = source.gather(hosts("127.0.0.1"), Duration.ofSeconds(1));
            assertThat(second.reused()).isEqualTo(1);
            assertThat(second.asked()).isZero();
            assertThat(second.state().load("127.0.0.1").rxCapacity()).isEqualTo(100e6 / 8);
            // Counted where the reply arrived: the daemon counts its own replies only after handing them to Netty.
            assertThat(source.replies()).isEqualTo(1);
        }
        try (UdpStatusSource fresh = new UdpStatusSource(new SameHostLocator(PORT), codec, Duration.ZERO)) {
            assertThat(fresh.gather(hosts("127.0.0.1"), Duration.ofSeconds(1)).answered())
                    .isEqualTo(1);
            assertThat(fresh.gather(hosts("127.0.0.1"), Duration.ofSeconds(1)).reused())
                    .isZero();
            assertThat(fresh.replies()).isEqualTo(2);
        }
    }

    @Test
    void aDaemonWithAnotherKeyIsNotBelieved() throws Exception {
        StatusCodec wrongKey = new StatusCodec(new MessageAuthenticator("some-other-deployment-key".getBytes()));
        try (UdpStatusSource source = new UdpStatusSource(new SameHostLocator(PORT), wrongKey, Duration.ZERO)) {
            StatusSource.Gathered gathered = source.gather(hosts("127.0.0.1"), Duration.ofMillis(200));
            assertThat(gathered.answered()).isZero();
            assertThat(gathered.state().load("127.0.0.1")).isEqualTo(HostLoad.UNREACHABLE);
        }
    }

    @Test
    void aStaticMapSendsEndpointsToTheDaemonThatServesThem() throws Exception {
        Path map = temp.resolve("daemons.map");
        Files.writeString(map, "# endpoint daemon\n10.9.0.1 127.0.0.2:" + PORT + "\n");
        StaticMapLocator locator = StaticMapLocator.read(map);
        assertThat(locator.locate(Address.parse("10.9.0.1")))
                .hasValueSatisfying(daemon -> assertThat(daemon.getPort()).isEqualTo(PORT));
        assertThat(locator.locate(Address.parse("10.9.0.2"))).isEmpty();
        try (UdpStatusSource source = new UdpStatusSource(locator, codec, Duration.ZERO)) {
            // The daemon on 127.0.0.2 does not serve 10.9.0.1: it answers "unknown", which reads as heavily loaded and
            // counts as missing (a wrong map must show in the answers' and the metrics' missing status).
            StatusSource.Gathered gathered = source.gather(hosts("10.9.0.1"), Duration.ofMillis(500));
            assertThat(gathered.answered()).isZero();
            assertThat(gathered.state().load("10.9.0.1")).isEqualTo(HostLoad.UNREACHABLE);
        }
    }

    @Test
    void warmsUpWithRoundTripsOnLoopbackOnly() throws Exception {
        try (UdpStatusSource source = new UdpStatusSource(new SameHostLocator(PORT), codec, Duration.ofSeconds(30))) {
            assertThat(source.warmUp(Duration.ofMillis(200))).isGreaterThan(10);
            assertThat(source.replies()).isGreaterThan(10);
            assertThat(source.rejected()).isZero();
            // Nothing learnt in the warm-up answers a real query.
            StatusSource.Gathered gathered = source.gather(hosts("192.0.2.1"), Duration.ofMillis(50));
            assertThat(gathered.reused()).isZero();
            assertThat(gathered.state().load("192.0.2.1")).isEqualTo(HostLoad.UNREACHABLE);
        }
    }

    @Test
    void aReplyWithAStaleSampleCountsAsMissing() throws Exception {
        try (DatagramSocket daemon = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            AtomicLong sampleAge = new AtomicLong();
            Thread fake = new Thread(() -> answerWithAge(daemon, sampleAge));
            fake.start();
            Locator locator = address -> Optional.of((InetSocketAddress) daemon.getLocalSocketAddress());
            try (UdpStatusSource source =
                    new UdpStatusSource(locator, codec, Duration.ZERO, Duration.ofMillis(1_000))) {
                sampleAge.set(900);
                StatusSource.Gathered fresh = source.gather(hosts("10.9.0.5"), Duration.ofSeconds(2));
                assertThat(fresh.answered()).isEqualTo(1);
                assertThat(fresh.state().load("10.9.0.5").rxCapacity()).isEqualTo(1e9 / 8);

                // A daemon whose sampler is stuck still answers promptly, with an ever older sample of an idle host.
                sampleAge.set(60_000);
                StatusSource.Gathered stale = source.gather(hosts("10.9.0.5"), Duration.ofSeconds(2));
                assertThat(stale.answered()).isZero();
                assertThat(stale.state().load("10.9.0.5")).isEqualTo(HostLoad.UNREACHABLE);
                assertThat(source.stale()).isEqualTo(1);
                assertThat(source.rejected()).isZero();
            } finally {
                daemon.close();
                fake.join(5_000);
            }
        }
    }

    /** A daemon that answers every request about one idle 1 Gbit/s host, with the given sample age. */
    private static void answerWithAge(DatagramSocket socket, AtomicLong sampleAge) {
        byte[] buffer = new byte[WireFormat.MAX_DATAGRAM];
        try {
            while (!socket.isClosed()) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                socket.receive(packet);
                StatusRequest request = codec.decodeRequest(buffer, packet.getLength());
                List<EndpointStatus> statuses = new ArrayList<>();
                for (InetAddress endpoint : request.endpoints()) {
                    statuses.add(new EndpointStatus(
                            endpoint,
                            true,
                            sampleAge.get(),
                            1_000_000_000,
                            0,
                            1_000_000_000,
                            0,
                            200_000_000,
                            0,
                            200_000_000,
                            0));
                }
                byte[] reply =
                        codec.encodeReply(new StatusReply(request.requestId(), System.currentTimeMillis(), statuses));
                socket.send(new DatagramPacket(reply, reply.length, packet.getSocketAddress()));
            }
        } catch (IOException | WireException e) {
            // closed by the test
        }
    }

    private static Set<Address> hosts(String... texts) {
        return java.util.Arrays.stream(texts).map(Address::parse).collect(java.util.stream.Collectors.toSet());
    }
}
