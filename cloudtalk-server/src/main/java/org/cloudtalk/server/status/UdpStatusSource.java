package org.cloudtalk.server.status;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;

/**
 * Scatter-gather over the status daemons (§4): one authenticated request per daemon (up to 24 endpoints each), all
 * sent at once from one UDP socket, then a wait bounded by the caller until every reply is in. A reply counts only if
 * it authenticates, echoes a pending request id and comes from the daemon that was asked; an endpoint without one in
 * time, or whose sample is older than {@code maxAge}, is heavily loaded. A reply younger than {@code reuseAge} answers later queries without asking again (asking
 * more often than a daemon samples learns nothing); {@code reuseAge} 0 gathers afresh every time, as in the paper.
 *
 * <p>Concurrency: thread-safe. Pending requests and reusable replies live in concurrent maps; the socket's one event
 * loop thread completes pending requests, and callers wait on their own latch.
 */
public final class UdpStatusSource implements StatusSource {
    private final Locator locator;
    private final StatusCodec codec;
    /** The default of {@code status.max.age.ms}: eight of the daemon's default sampling intervals. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(2);

    private static final int WARM_UP_ROUNDS = 300;

    private final long reuseNanos;
    private final long maxAgeMillis;
    private final EventLoopGroup group;
    private final Channel channel;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final Map<Address, Reusable> recent = new ConcurrentHashMap<>();
    private final SplittableRandom ids = new SplittableRandom(new SecureRandom().nextLong());
    private final LongAdder replies = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder stale = new LongAdder();
    /** The warm-up's own responder: a reply from it arriving after the warm-up is not a rejected datagram. */
    private volatile InetSocketAddress warmUpResponder;

    private record Reusable(HostLoad load, long receivedNanos) {}

    /** One request in flight: who was asked about what, and what came back. */
    private static final class Pending {
        final long id;
        final InetSocketAddress daemon;
        final List<InetAddress> endpoints;
        final CountDownLatch done;
        volatile List<EndpointStatus> answer;

        Pending(long id, InetSocketAddress daemon, List<InetAddress> endpoints, CountDownLatch done) {
            this.id = id;
            this.daemon = daemon;
            this.endpoints = endpoints;
            this.done = done;
        }
    }

    public UdpStatusSource(Locator locator, StatusCodec codec, Duration reuseAge) throws InterruptedException {
        this(locator, codec, reuseAge, DEFAULT_MAX_AGE);
    }

    /**
     * @param maxAge a reply whose sample is older than this is treated as no reply: a daemon whose sampler is stuck
     *     keeps answering with its last figures, and those say nothing about the host now
     */
    public UdpStatusSource(Locator locator, StatusCodec codec, Duration reuseAge, Duration maxAge)
            throws InterruptedException {
        this.locator = requireNonNull(locator, "locator is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.reuseNanos = requireNonNull(reuseAge, "reuseAge is null").toNanos();
        this.maxAgeMillis = requireNonNull(maxAge, "maxAge is null").toMillis();
        this.group = new NioEventLoopGroup(1);
        try {
            this.channel = new Bootstrap()
                    .group(group)
                    .channel(NioDatagramChannel.class)
                    .handler(new ReplyHandler())
                    .bind(0)
                    .sync()
                    .channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    @Override
    public Gathered gather(Set<Address> addresses, Duration wait) throws InterruptedException {
        Map<String, HostLoad> loads = new HashMap<>();
        Map<InetSocketAddress, List<InetAddress>> byDaemon = new LinkedHashMap<>();
        long now = System.nanoTime();
        int reused = 0;
        for (Address address : addresses) {
            Reusable previous = recent.get(address);
            if (previous != null && now - previous.receivedNanos() < reuseNanos) {
                loads.put(address.text(), previous.load());
                reused++;
                continue;
            }
            Optional<InetSocketAddress> daemon = locator.locate(address);
            if (daemon.isPresent()) {
                byDaemon.computeIfAbsent(daemon.get(), unused -> new ArrayList<>())
                        .add(address.toInetAddress());
            }
        }
        List<Pending> sent = send(byDaemon);
        long deadline = System.nanoTime() + wait.toNanos();
        int answered = 0;
        try {
            for (Pending request : sent) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    request.done.await(left, TimeUnit.NANOSECONDS);
                }
                List<EndpointStatus> answer = request.answer;
                if (answer == null) {
                    timeouts.increment();
                    continue;
                }
                for (EndpointStatus status : answer) {
                    if (!status.known()) {
                        // The daemon does not serve that address (a wrong locator map or endpoints list): no status
                        // arrived for it, and the answer's and the metrics' "missing" must say so.
                        continue;
                    }
                    if (status.sampleAgeMillis() > maxAgeMillis) {
                        stale.increment();
                        continue;
                    }
                    Address address = Address.of(status.endpoint());
                    HostLoad load = HostLoad.from(status);
                    loads.put(address.text(), load);
                    recent.put(address, new Reusable(load, System.nanoTime()));
                    answered++;
                }
            }
        } finally {
            for (Pending request : sent) {
                pending.remove(request.id);
            }
        }
        int asked = addresses.size() - reused;
        return new Gathered(new ClusterState(loads), asked, answered, reused);
    }

    /**
     * Asks a responder of its own on loopback, {@value #WARM_UP_ROUNDS} times or until {@code budget} has passed: cold,
     * the first gather after a start pays for class loading and the MAC's set-up and can miss the gather wait. Nothing
     * leaves the host, nothing is cached for real queries, and the traffic is too little to show in the figures of a
     * daemon that watches the loopback interface (as in the quickstart).
     *
     * @return the round trips made
     */
    public int warmUp(Duration budget) throws InterruptedException {
        Channel responder = new Bootstrap()
                .group(group)
                .channel(NioDatagramChannel.class)
                .handler(new WarmUpResponder())
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .sync()
                .channel();
        warmUpResponder = (InetSocketAddress) responder.localAddress();
        try {
            Map<InetSocketAddress, List<InetAddress>> request =
                    Map.of(warmUpResponder, List.of(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1})));
            long end = System.nanoTime() + budget.toNanos();
            int rounds = 0;
            while (rounds < WARM_UP_ROUNDS && end - System.nanoTime() > 0) {
                List<Pending> sent = send(request);
                try {
                    for (Pending pendingRequest : sent) {
                        pendingRequest.done.await(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                    }
                } finally {
                    sent.forEach(pendingRequest -> pending.remove(pendingRequest.id));
                }
                rounds++;
            }
            return rounds;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a literal address", e);
        } finally {
            responder.close().awaitUninterruptibly();
        }
    }

    private List<Pending> send(Map<InetSocketAddress, List<InetAddress>> byDaemon) {
        List<Pending> sent = new ArrayList<>();
        long timestamp = System.currentTimeMillis();
        byDaemon.forEach((daemon, endpoints) -> {
            for (int from = 0; from < endpoints.size(); from += WireFormat.MAX_ENDPOINTS) {
                List<InetAddress> chunk = List.copyOf(
                        endpoints.subList(from, Math.min(endpoints.size(), from + WireFormat.MAX_ENDPOINTS)));
                long id = nextId();
                Pending request = new Pending(id, daemon, chunk, new CountDownLatch(1));
                pending.put(id, request);
                byte[] datagram = codec.encodeRequest(new StatusRequest(id, timestamp, chunk));
                channel.write(new DatagramPacket(Unpooled.wrappedBuffer(datagram), daemon));
                sent.add(request);
            }
        });
        channel.flush();
        return sent;
    }

    private synchronized long nextId() {
        return ids.nextLong();
    }

    public long replies() {
        return replies.sum();
    }

    public long timeouts() {
        return timeouts.sum();
    }

    /** Datagrams that were not a valid answer to a pending request from the daemon asked. */
    @Override
    public long rejected() {
        return rejected.sum();
    }

    /** Endpoint statuses whose sample was older than the maximum age. */
    @Override
    public long stale() {
        return stale.sum();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** The warm-up's daemon: answers every request it can decode, with every endpoint unknown. */
    private final class WarmUpResponder extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            byte[] data = new byte[Math.min(packet.content().readableBytes(), WireFormat.MAX_DATAGRAM)];
            packet.content().getBytes(packet.content().readerIndex(), data);
            try {
                StatusRequest request = codec.decodeRequest(data, data.length);
                List<EndpointStatus> statuses = new ArrayList<>();
                request.endpoints().forEach(endpoint -> statuses.add(EndpointStatus.unknown(endpoint)));
                byte[] reply =
                        codec.encodeReply(new StatusReply(request.requestId(), System.currentTimeMillis(), statuses));
                ctx.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(reply), packet.sender()));
            } catch (WireException e) {
                // not one of the warm-up's requests: ignore it
            }
        }
    }

    /** Completes pending requests with authentic replies from the daemons asked; counts and drops the rest. */
    private final class ReplyHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        private final byte[] scratch = new byte[WireFormat.MAX_DATAGRAM];

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            ByteBuf content = packet.content();
            int length = content.readableBytes();
            if (length > scratch.length) {
                rejected.increment();
                return;
            }
            content.getBytes(content.readerIndex(), scratch, 0, length);
            StatusReply reply;
            try {
                reply = codec.decodeReply(scratch, length);
            } catch (WireException e) {
                rejected.increment();
                return;
            }
            Pending request = pending.get(reply.requestId());
            if (request == null && packet.sender().equals(warmUpResponder)) {
                return; // a warm-up round trip that ended after the warm-up did
            }
            if (request == null || !request.daemon.equals(packet.sender()) || !answers(reply, request)) {
                rejected.increment();
                return;
            }
            request.answer = reply.endpoints();
            replies.increment();
            request.done.countDown();
        }

        private boolean answers(StatusReply reply, Pending request) {
            List<InetAddress> endpoints = new ArrayList<>();
            reply.endpoints().forEach(status -> endpoints.add(status.endpoint()));
            return endpoints.equals(request.endpoints);
        }
    }
}
