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
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.FakeSystem;
import org.cloudtalk.status.sample.StatusSampler;
import org.cloudtalk.status.wire.DropReason;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.ReplayGuard;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1,000,000 random and mutated datagrams through the daemon's pipeline: no exception escapes, nothing is answered
 * that was not an authentic fresh request, and a valid request is still answered afterwards.
 */
class StatusDatagramFuzzTest {
    private static final int DATAGRAMS = Integer.getInteger("fuzz.datagrams", 1_000_000);
    private static final long SEED = Long.getLong("fuzz.seed", 20261120L);

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void survivesGarbageAndKeepsAnswering(@TempDir Path temp) throws Exception {
        StatusCodec codec = new StatusCodec(new MessageAuthenticator(StatusRequestHandlerTest.KEY));
        FakeSystem system = new FakeSystem(temp);
        InetAddress served = InetAddress.getByName("10.0.0.1");
        long now = 1_700_000_000_000L;
        DaemonCounters counters = new DaemonCounters();
        try (StatusSampler sampler = new StatusSampler(
                List.of(system.endpoint(served)), system.files(), Duration.ofMillis(250), Duration.ofSeconds(1))) {
            EmbeddedChannel channel = new EmbeddedChannel(new StatusRequestHandler(
                    codec,
                    sampler,
                    new ReplayGuard(2000, 1 << 16),
                    new SourceRateLimiter(1e9, 1_000_000),
                    counters,
                    () -> now));
            Random random = new Random(SEED);
            byte[][] seeds = {
                codec.encodeRequest(new StatusRequest(1, now, List.of(served))),
                codec.encodeRequest(new StatusRequest(2, now, List.of())),
                codec.encodeRequest(new StatusRequest(3, now, List.of(InetAddress.getByName("2001:db8::1"), served)))
            };
            InetSocketAddress daemon = new InetSocketAddress("10.0.0.1", 7450);
            for (int i = 0; i < DATAGRAMS; i++) {
                byte[] datagram =
                        i % 3 == 0 ? randomBytes(random) : mutate(random, seeds[random.nextInt(seeds.length)]);
                InetSocketAddress sender = new InetSocketAddress(
                        InetAddress.getByAddress(new byte[] {10, 1, (byte) (i >> 8), (byte) i}), 5000);
                channel.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(datagram), daemon, sender));
                channel.checkException();
                channel.releaseOutbound();
            }
            assertThat(counters.failures()).isZero();
            assertThat(counters.received()).isEqualTo(DATAGRAMS);
            // Mutations that leave a seed intact replay it; the three seeds may each have been answered once.
            assertThat(counters.replies()).isLessThanOrEqualTo(seeds.length);
            assertThat(counters.dropped(DropReason.BAD_MAC)).isGreaterThan(DATAGRAMS / 2);

            channel.writeInbound(new DatagramPacket(
                    Unpooled.wrappedBuffer(codec.encodeRequest(new StatusRequest(99, now, List.of(served)))),
                    daemon,
                    new InetSocketAddress("10.0.0.2", 1)));
            DatagramPacket reply = channel.readOutbound();
            assertThat(reply).isNotNull();
            reply.release();
            assertThat(channel.finishAndReleaseAll()).isFalse();
        }
    }

    private static byte[] randomBytes(Random random) {
        byte[] datagram = new byte[random.nextInt(random.nextInt(8) == 0 ? 2000 : 140)];
        random.nextBytes(datagram);
        if (datagram.length > 4 && random.nextBoolean()) {
            datagram[0] = 0x43;
            datagram[1] = 0x54;
            datagram[2] = 1;
            datagram[3] = (byte) random.nextInt(3);
        }
        return datagram;
    }

    private static byte[] mutate(Random random, byte[] seed) {
        byte[] datagram = seed.clone();
        switch (random.nextInt(4)) {
            case 0 -> datagram[random.nextInt(datagram.length)] ^= (byte) (1 << random.nextInt(8));
            case 1 -> datagram = java.util.Arrays.copyOf(datagram, random.nextInt(datagram.length + 1));
            case 2 -> {
                datagram = java.util.Arrays.copyOf(datagram, datagram.length + 1 + random.nextInt(40));
                random.nextBytes(new byte[1]);
            }
            default -> datagram[20] = (byte) random.nextInt(256);
        }
        return datagram;
    }
}
