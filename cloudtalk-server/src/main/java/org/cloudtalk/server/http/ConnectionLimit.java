package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import org.cloudtalk.client.api.ApiError;

/**
 * Caps the open API connections. One over the cap is answered at once with the API's JSON 503 and closed, before
 * anything is read from it, so a client holding thousands of idle connections cannot exhaust the process's
 * descriptors or the I/O thread, and a refused client learns why instead of timing out.
 *
 * <p>Sharable: the count lives in {@link ServerMetrics} (atomic); the per-channel mark is a channel attribute.
 */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("cloudtalk.connectionCounted");

    private final int maxConnections;
    private final ServerMetrics metrics;

    ConnectionLimit(int maxConnections, ServerMetrics metrics) {
        this.maxConnections = maxConnections;
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (metrics.connectionOpened() > maxConnections) {
            metrics.connectionRefused();
            ctx.channel().config().setAutoRead(false);
            // Written from the head of the pipeline, ahead of the HTTP codec: the bytes are a complete response.
            ctx.writeAndFlush(Responses.encoded(Responses.closing(Responses.error(
                            ApiError.TOO_MANY_CONNECTIONS,
                            "the server has " + maxConnections + " connections open; retry shortly"))))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.channel().attr(COUNTED).set(Boolean.TRUE);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (Boolean.TRUE.equals(ctx.channel().attr(COUNTED).getAndSet(null))) {
            metrics.connectionClosed();
        }
        ctx.fireChannelInactive();
    }
}
