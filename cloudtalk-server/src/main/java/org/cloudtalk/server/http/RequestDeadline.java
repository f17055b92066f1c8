package org.cloudtalk.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline for receiving one whole request, counted from the first byte read for it: the idle timeout alone lets a
 * client that sends a header line every 25 s hold a connection forever. {@link #start()} sits ahead of the HTTP codec
 * and starts the clock on incoming bytes; {@link #stop()} sits after the aggregator and stops it when the request is
 * complete. On expiry it fires {@link #EXCEEDED} down the pipeline, where {@link PipelinedRequests} answers 408 (or
 * finishes what it is answering) and closes.
 *
 * <p>Concurrency: one instance per channel; its state is touched only on the channel's event loop.
 */
final class RequestDeadline {
    /** The user event fired when a request was not received in time. */
    static final Object EXCEEDED = new Object() {
        @Override
        public String toString() {
            return "RequestDeadline.EXCEEDED";
        }
    };

    private final long deadlineNanos;
    private final ServerMetrics metrics;
    private ScheduledFuture<?> timer;

    RequestDeadline(Duration deadline, ServerMetrics metrics) {
        this.deadlineNanos = deadline.toNanos();
        this.metrics = metrics;
    }

    ChannelInboundHandlerAdapter start() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (timer == null) {
                    timer = ctx.executor().schedule(() -> expire(ctx), deadlineNanos, TimeUnit.NANOSECONDS);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                cancel();
                ctx.fireChannelInactive();
            }
        };
    }

    ChannelInboundHandlerAdapter stop() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                cancel();
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void expire(ChannelHandlerContext ctx) {
        timer = null;
        metrics.requestDeadlineExceeded();
        ctx.fireUserEventTriggered(EXCEEDED);
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
