package org.cloudtalk.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.cloudtalk.client.api.ApiError;

/**
 * HTTP/1.1 pipelining: a connection's requests are handed on one at a time, the next only once the previous one's
 * response is written, so answers leave in the order the requests came even though queries are answered on worker
 * threads and {@code /healthz} on the I/O thread. Requests that arrive meanwhile wait here (reading pauses while
 * {@value #MAX_QUEUED} wait). The next request is also held, and reading paused, while the connection's unsent answers
 * are over Netty's write high-water mark: a client that pipelines requests and never reads the answers would else
 * have them pile up in the server's direct memory until every connection stalls. After the client half-closes, or a
 * request misses its deadline, the connection closes once everything received is answered; a missed deadline with
 * nothing to answer gets the API's JSON 408.
 *
 * <p>Concurrency: one instance per channel; all state is touched on the channel's event loop.
 */
final class PipelinedRequests extends ChannelDuplexHandler {
    // Few: each may hold a body of up to the size limit, and requests are answered one at a time anyway.
    private static final int MAX_QUEUED = 4;

    /**
     * A request refused before it reached the API (over the size limit, an unsupported expectation): its response is
     * sent in the request's turn, then the connection closes.
     */
    record Refusal(FullHttpResponse response) {}

    private final ArrayDeque<Object> queued = new ArrayDeque<>();
    private boolean answering;
    private boolean closeWhenDone;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closeWhenDone) {
            release(msg);
            return;
        }
        boolean writable = ctx.channel().isWritable();
        if (answering || !writable) {
            queued.add(msg);
            if (queued.size() >= MAX_QUEUED || !writable) {
                ctx.channel().config().setAutoRead(false);
            }
            return;
        }
        pass(ctx, msg);
    }

    /** Hands the request on to be answered, or answers a refusal itself. */
    private void pass(ChannelHandlerContext ctx, Object msg) {
        answering = true;
        if (msg instanceof Refusal refusal) {
            closeWhenDone = true;
            ctx.channel().config().setAutoRead(false);
            queued.forEach(PipelinedRequests::release);
            queued.clear();
            ctx.writeAndFlush(refusal.response()).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof HttpResponse)) {
            ctx.write(msg, promise);
            return;
        }
        answering = false;
        ChannelPromise written = promise.unvoid();
        ctx.write(msg, written);
        if (queued.isEmpty()) {
            if (closeWhenDone) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
            return;
        }
        // Not from inside this write: the next request may be answered synchronously and write again.
        ctx.executor().execute(() -> next(ctx));
    }

    private void next(ChannelHandlerContext ctx) {
        if (answering || !ctx.channel().isActive()) {
            return;
        }
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
            return; // channelWritabilityChanged goes on once the client has read enough
        }
        Object msg = queued.poll();
        if (!closeWhenDone
                && queued.size() < MAX_QUEUED / 2
                && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
        if (msg == null) {
            return;
        }
        pass(ctx, msg);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            next(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        boolean halfClosed = event instanceof ChannelInputShutdownReadComplete;
        if (!halfClosed && event != RequestDeadline.EXCEEDED) {
            ctx.fireUserEventTriggered(event);
            return;
        }
        closeWhenDone = true;
        ctx.channel().config().setAutoRead(false);
        if (answering || !queued.isEmpty()) {
            return; // the last response closes the connection
        }
        if (halfClosed) {
            ctx.close();
        } else {
            ctx.writeAndFlush(Responses.closing(
                            Responses.error(ApiError.REQUEST_TIMEOUT, "the request was not received in time")))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        queued.forEach(PipelinedRequests::release);
        queued.clear();
        ctx.fireChannelInactive();
    }

    private static void release(Object msg) {
        ReferenceCountUtil.release(msg instanceof Refusal refusal ? refusal.response() : msg);
    }
}
