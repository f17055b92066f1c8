package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/** The tenant API's pipeline: bounded HTTP framing first, keep-alive, an idle timeout, then the API handler. */
public final class ApiChannelInitializer extends ChannelInitializer<SocketChannel> {
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADERS = 8192;
    private static final int IDLE_SECONDS = 120;

    private final ApiHandler handler;
    private final int maxBodyBytes;

    public ApiChannelInitializer(ApiHandler handler, int maxBodyBytes) {
        this.handler = requireNonNull(handler, "handler is null");
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        channel.pipeline()
                .addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS) {
                    @Override
                    protected void channelIdle(ChannelHandlerContext ctx, io.netty.handler.timeout.IdleStateEvent e) {
                        ctx.close();
                    }
                })
                .addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, 8192))
                .addLast("keepAlive", new HttpServerKeepAliveHandler())
                .addLast("aggregate", new BoundedAggregator(maxBodyBytes))
                .addLast("api", handler);
    }

    /** Refuses bodies over the limit with the API's JSON 413 and closes: the rest of the body is not read. */
    private static final class BoundedAggregator extends HttpObjectAggregator {
        BoundedAggregator(int maxBodyBytes) {
            super(maxBodyBytes);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            FullHttpResponse response = Responses.error(
                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "TOO_LARGE",
                    "request body over " + maxContentLength() + " bytes");
            HttpUtil.setKeepAlive(response, false);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
