package org.cloudtalk.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.cloudtalk.client.api.ApiError;

/**
 * HTTP/1.1 pipelining: a connection's requests are handed on one at a time, the next only once the previous one's
 * response is written, so answers leave in the order the requests came even though queries are answered on worker
 * threads and {@code /healthz} on the I/O thread. Requests that arrive meanwhile wait here (reading pauses while
 * {@value #MAX_QUEUED} wait). After the client half-closes, or a request misses its deadline, the connection closes
 * once everything received is answered; a missed deadline with nothing to answer gets the API's JSON 408.
 *
 * <p>Concurrency: one instance per channel; all state is touched on the channel's event loop.
 */
final class PipelinedRequests extends ChannelDuplexHandler {
    // Few: each may hold a body of up to the size limit, and requests are answered one at a time anyway.
    private static final int MAX_QUEUED = 4;

    private final ArrayDeque<Object> queued = new ArrayDeque<>();
    private boolean answering;
    private boolean closeWhenDone;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closeWhenDone) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (answering) {
            queued.add(msg);
            if (queued.size() >= MAX_QUEUED) {
                ctx.channel().config().setAutoRead(false);
            }
            return;
        }
        answering = true;
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
        Object msg = queued.poll();
        if (msg == null) {
            return;
        }
        if (!closeWhenDone
                && queued.size() < MAX_QUEUED / 2
                && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
        answering = true;
        ctx.fireChannelRead(msg);
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
        queued.forEach(ReferenceCountUtil::release);
        queued.clear();
        ctx.fireChannelInactive();
    }
}
