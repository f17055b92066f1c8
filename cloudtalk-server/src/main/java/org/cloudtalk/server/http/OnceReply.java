package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.cloudtalk.server.deadline.Deadline;

/**
 * The one response to a query: the worker's answer, or the late response sent from the channel's event loop when the
 * deadline passes first (the query may still be queued for a worker, or running), whichever claims it first.
 *
 * <p>Concurrency: the claim is an atomic flag, so exactly one response is written; the timer runs on the event loop
 * and the answer on a worker thread. The timer field is written before the query is handed to a worker.
 */
final class OnceReply {
    private final ChannelHandlerContext ctx;
    private final boolean keepAlive;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private volatile ScheduledFuture<?> timer;

    OnceReply(ChannelHandlerContext ctx, boolean keepAlive) {
        this.ctx = requireNonNull(ctx, "ctx is null");
        this.keepAlive = keepAlive;
    }

    /** At {@code deadline}, unless a response was claimed already, sends what {@code late} makes. */
    void sendAt(Deadline deadline, Supplier<FullHttpResponse> late) {
        timer = ctx.executor()
                .schedule(
                        () -> {
                            if (claim()) {
                                write(late.get());
                            }
                        },
                        deadline.remaining().toNanos(),
                        TimeUnit.NANOSECONDS);
    }

    boolean isClaimed() {
        return claimed.get();
    }

    /** True for the first caller only, who must then {@link #write} the response (or have it written otherwise). */
    boolean claim() {
        boolean first = claimed.compareAndSet(false, true);
        ScheduledFuture<?> pending = timer;
        if (first && pending != null) {
            pending.cancel(false);
        }
        return first;
    }

    /** Writes the claimed response; the pipeline's {@link PipelinedRequests} orders it and closes when due. */
    void write(FullHttpResponse response) {
        ctx.writeAndFlush(Responses.withConnection(response, keepAlive));
    }
}
