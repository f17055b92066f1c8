package org.cloudtalk.status.server;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.cloudtalk.status.sample.StatusSampler;
import org.cloudtalk.status.wire.DropReason;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.ReplayGuard;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.StatusReply;
import org.cloudtalk.status.wire.StatusRequest;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.status.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one status request datagram with one reply datagram. Cheap checks come first: size and the sender's rate
 * limit before any cryptography, the MAC before parsing, staleness and replay before answering. A bad datagram is
 * counted and dropped; nothing a sender does closes the channel. All work is a few microseconds and non-blocking,
 * so it runs on the event loop.
 *
 * <p>Concurrency: not sharable; its replay guard, rate limiter and scratch buffer belong to the channel's event loop.
 */
public final class StatusRequestHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger log = LoggerFactory.getLogger(StatusRequestHandler.class);

    private final StatusCodec codec;
    private final StatusSampler sampler;
    private final ReplayGuard replayGuard;
    private final SourceRateLimiter rateLimiter;
    private final DaemonCounters counters;
    private final LongSupplier wallClockMillis;
    private final byte[] scratch = new byte[WireFormat.MAX_DATAGRAM];

    public StatusRequestHandler(
            StatusCodec codec,
            StatusSampler sampler,
            ReplayGuard replayGuard,
            SourceRateLimiter rateLimiter,
            DaemonCounters counters,
            LongSupplier wallClockMillis) {
        this.codec = requireNonNull(codec, "codec is null");
        this.sampler = requireNonNull(sampler, "sampler is null");
        this.replayGuard = requireNonNull(replayGuard, "replayGuard is null");
        this.rateLimiter = requireNonNull(rateLimiter, "rateLimiter is null");
        this.counters = requireNonNull(counters, "counters is null");
        this.wallClockMillis = requireNonNull(wallClockMillis, "wallClockMillis is null");
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
        counters.countReceived();
        ByteBuf content = packet.content();
        int length = content.readableBytes();
        if (length > WireFormat.MAX_DATAGRAM) {
            counters.countDropped(DropReason.TOO_LONG);
            return;
        }
        if (!rateLimiter.tryAcquire(packet.sender().getAddress(), System.nanoTime())) {
            counters.countDropped(DropReason.RATE_LIMITED);
            return;
        }
        content.getBytes(content.readerIndex(), scratch, 0, length);
        StatusRequest request;
        try {
            request = codec.decodeRequest(scratch, length);
        } catch (WireException e) {
            counters.countDropped(e.reason());
            return;
        }
        long now = wallClockMillis.getAsLong();
        DropReason rejected = replayGuard.check(request.requestId(), request.timestampMillis(), now);
        if (rejected != null) {
            counters.countDropped(rejected);
            return;
        }
        byte[] reply = codec.encodeReply(new StatusReply(request.requestId(), now, statuses(request, now)));
        ctx.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(reply), packet.sender()));
        counters.countReplied();
    }

    private List<EndpointStatus> statuses(StatusRequest request, long now) {
        StatusSampler.Snapshot snapshot = sampler.snapshot();
        List<InetAddress> wanted = request.endpoints().isEmpty() ? servedEndpoints() : request.endpoints();
        long age = Math.max(0, now - snapshot.sampledAtMillis());
        List<EndpointStatus> statuses = new ArrayList<>(wanted.size());
        for (InetAddress endpoint : wanted) {
            EndpointStatus status = snapshot.statuses().get(endpoint);
            statuses.add(status == null ? EndpointStatus.unknown(endpoint) : status.withSampleAge(age));
        }
        return statuses;
    }

    private List<InetAddress> servedEndpoints() {
        List<InetAddress> all = sampler.endpoints();
        return all.size() > WireFormat.MAX_ENDPOINTS ? all.subList(0, WireFormat.MAX_ENDPOINTS) : all;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A UDP channel serves every sender: never close it because of one datagram.
        counters.countFailed();
        log.warn("failed to answer a status request", cause);
    }
}
