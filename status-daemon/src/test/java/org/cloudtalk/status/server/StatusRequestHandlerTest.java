package org.cloudtalk.status.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.cloudtalk.status.FakeSystem;
import org.cloudtalk.status.sample.StatusSampler;
import org.cloudtalk.status.wire.DropReason;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.ReplayGuard;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.TestDatagrams;
import org.cloudtalk.status.wire.WireFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handler in a real Netty pipeline (EmbeddedChannel): answers, drops and counts. */
class StatusRequestHandlerTest {
    static final byte[] KEY = "0123456789abcdef-test-key".getBytes();
    static final InetSocketAddress DAEMON = new InetSocketAddress("10.0.0.1", 7450);
    static final InetSocketAddress CLIENT = new InetSocketAddress("10.0.0.2", 40000);

    @TempDir
    Path temp;

    final StatusCodec codec = new StatusCodec(new MessageAuthenticator(KEY));
    final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    final DaemonCounters counters = new DaemonCounters();
    InetAddress served;
    StatusSampler sampler;
    EmbeddedChannel channel;
    long nextId = 1;

    @BeforeEach
    void setUp() throws Exception {
        served = InetAddress.getByName("10.0.0.1");
        FakeSystem system = new FakeSystem(temp);
        sampler = new StatusSampler(
                List.of(system.endpoint(served)), system.files(), Duration.ofMillis(250), Duration.ofSeconds(1));
        channel = channel(new SourceRateLimiter(1000, 100));
    }

    private EmbeddedChannel channel(SourceRateLimiter limiter) {
        return channel(limiter, new ReplayGuard(2000, 1 << 12));
    }

    private EmbeddedChannel channel(SourceRateLimiter limiter, ReplayGuard guard) {
        return new EmbeddedChannel(new StatusRequestHandler(codec, sampler, guard, limiter, counters, clock::get));
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
        sampler.close();
    }

    @Test
    void answersAuthenticRequestEchoingItsId() throws Exception {
        StatusReply reply = ask(request(List.of(served)));
        assertThat(reply.requestId()).isEqualTo(nextId - 1);
        assertThat(reply.endpoints()).singleElement().satisfies(status -> {
            assertThat(status.endpoint()).isEqualTo(served);
            assertThat(status.known()).isTrue();
            assertThat(status.nicRxCapacityBitsPerSecond()).isEqualTo(10_000_000_000L);
        });
        assertThat(counters.replies()).isEqualTo(1);
    }

    @Test
    void anEmptyRequestAsksForEveryServedEndpointAndUnknownOnesAreMarked() throws Exception {
        assertThat(ask(request(List.of())).endpoints())
                .extracting(EndpointStatus::endpoint)
                .containsExactly(served);
        InetAddress stranger = InetAddress.getByName("10.9.9.9");
        assertThat(ask(request(List.of(stranger))).endpoints()).containsExactly(EndpointStatus.unknown(stranger));
    }

    @Test
    void dropsAndCountsEveryKindOfBadDatagram() throws Exception {
        byte[] valid = request(List.of(served));
        send(new byte[3]);
        send(new byte[WireFormat.MAX_DATAGRAM + 10]);
        send(with(valid, 0, (byte) 0));
        send(with(valid, 2, (byte) 2));
        send(with(valid, 3, WireFormat.TYPE_REPLY));
        send(with(valid, 5, (byte) (valid[5] ^ 0x40)));
        send(codec.encodeRequest(new StatusRequest(nextId++, clock.get() - 60_000, List.of(served))));
        send(valid);
        send(valid);
        assertThat(channel.outboundMessages()).hasSize(1);
        channel.releaseOutbound();
        assertThat(counters.dropped(DropReason.TOO_SHORT)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.TOO_LONG)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.BAD_MAGIC)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.UNSUPPORTED_VERSION)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.WRONG_TYPE)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.BAD_MAC)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.STALE)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.REPLAYED)).isEqualTo(1);
        assertThat(counters.received()).isEqualTo(9);
        assertThat(counters.replies()).isEqualTo(1);
        assertThat(counters.summary()).startsWith("received=9 replied=1 failed=0 dropped=8 (");
        assertThat(channel.isActive()).isTrue();
    }

    @Test
    void dropsAuthenticButMalformedRequestsAndRefusesWhenTheReplayCacheIsFull() throws Exception {
        channel.finishAndReleaseAll();
        channel = channel(new SourceRateLimiter(1000, 100), new ReplayGuard(2000, 1));
        send(TestDatagrams.signedRequest(KEY, clock.get(), 1, 7, 1, 2, 3, 4));
        send(TestDatagrams.signedRequest(KEY, clock.get(), WireFormat.MAX_ENDPOINTS + 1));
        send(request(List.of(served)));
        send(request(List.of(served)));
        assertThat(channel.outboundMessages()).hasSize(1);
        channel.releaseOutbound();
        assertThat(counters.dropped(DropReason.MALFORMED)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.TOO_MANY_ENDPOINTS)).isEqualTo(1);
        assertThat(counters.dropped(DropReason.REPLAY_CACHE_FULL)).isEqualTo(1);
    }

    @Test
    void limitsEachSenderWithoutStarvingOthers() throws Exception {
        channel.finishAndReleaseAll();
        // A burst of 5 and a refill too slow to matter within the test: exactly 15 of 20 are refused.
        channel = channel(new SourceRateLimiter(0.001, 5));
        for (int i = 0; i < 20; i++) {
            send(request(List.of(served)));
        }
        assertThat(counters.dropped(DropReason.RATE_LIMITED)).isEqualTo(15);
        assertThat(channel.outboundMessages()).hasSize(5);
        channel.releaseOutbound();
        channel.writeInbound(new DatagramPacket(
                Unpooled.wrappedBuffer(request(List.of(served))), DAEMON, new InetSocketAddress("10.0.0.3", 1)));
        DatagramPacket reply = channel.readOutbound();
        assertThat(reply).isNotNull();
        assertThat(reply.recipient().getAddress().getHostAddress()).isEqualTo("10.0.0.3");
        reply.release();
    }

    private byte[] request(List<InetAddress> endpoints) {
        return codec.encodeRequest(new StatusRequest(nextId++, clock.get(), endpoints));
    }

    private StatusReply ask(byte[] request) throws Exception {
        send(request);
        DatagramPacket packet = channel.readOutbound();
        assertThat(packet).as("a reply").isNotNull();
        assertThat(packet.recipient()).isEqualTo(CLIENT);
        byte[] bytes = new byte[packet.content().readableBytes()];
        packet.content().readBytes(bytes);
        packet.release();
        return codec.decodeReply(bytes, bytes.length);
    }

    private void send(byte[] datagram) {
        channel.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(datagram), DAEMON, CLIENT));
        channel.checkException();
    }

    private static byte[] with(byte[] data, int index, byte value) {
        byte[] copy = data.clone();
        copy[index] = value;
        return copy;
    }
}
