package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.client.api.ApiError;

/**
 * The tenant API's pipeline: the connection cap, an idle timeout and the request deadline first, bounded HTTP framing,
 * keep-alive, in-order answers to pipelined requests, then the API handler.
 */
public final class ApiChannelInitializer extends ChannelInitializer<SocketChannel> {
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADERS = 8192;
    private static final int IDLE_SECONDS = 120;

    private final ApiHandler handler;
    private final int maxBodyBytes;
    private final HttpLimits limits;
    private final ServerMetrics metrics;
    private final ConnectionLimit connectionLimit;

    /** With the default {@link HttpLimits} and the handler's metrics. */
    public ApiChannelInitializer(ApiHandler handler, int maxBodyBytes) {
        this(handler, maxBodyBytes, HttpLimits.DEFAULT);
    }

    public ApiChannelInitializer(ApiHandler handler, int maxBodyBytes, HttpLimits limits) {
        this.handler = requireNonNull(handler, "handler is null");
        this.maxBodyBytes = maxBodyBytes;
        this.limits = requireNonNull(limits, "limits is null");
        this.metrics = handler.metrics();
        this.connectionLimit = new ConnectionLimit(limits.maxConnections(), metrics);
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        RequestDeadline deadline = new RequestDeadline(limits.requestDeadline(), metrics);
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("connectionLimit", connectionLimit)
                .addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS) {
                    @Override
                    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent e) {
                        ctx.close();
                    }
                })
                .addLast("deadlineStart", deadline.start())
                .addLast("http", new ApiCodec(MAX_INITIAL_LINE, MAX_HEADERS, 8192))
                .addLast("keepAlive", new HttpServerKeepAliveHandler())
                .addLast("aggregate", new BoundedAggregator(maxBodyBytes))
                .addLast("deadlineStop", deadline.stop())
                .addLast("inOrder", new PipelinedRequests())
                .addLast("api", handler);
    }

    /**
     * Refuses bodies over the limit with the API's JSON 413 and closes: the rest of the body is not read. That holds
     * for {@code Expect: 100-continue} too, where the client has not sent the body and would otherwise find the
     * connection waiting for it. Refusals go down the pipeline as {@link PipelinedRequests.Refusal}s, answered in
     * their turn after the requests before them, not ahead of those answers.
     */
    private static final class BoundedAggregator extends HttpObjectAggregator {
        BoundedAggregator(int maxBodyBytes) {
            super(maxBodyBytes, true);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            ctx.channel().config().setAutoRead(false);
            ctx.fireChannelRead(new PipelinedRequests.Refusal(tooLarge()));
        }

        @Override
        protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
            Object response = super.newContinueResponse(start, maxContentLength, pipeline);
            if (!(response instanceof FullHttpResponse full) || full.status().code() < 400) {
                return response; // 100 Continue, or nothing to say
            }
            HttpResponseStatus status = full.status();
            ReferenceCountUtil.release(response);
            if (!status.equals(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE)) {
                pipeline.context(this)
                        .fireChannelRead(new PipelinedRequests.Refusal(Responses.closing(Responses.error(
                                ApiError.EXPECTATION_FAILED, "only the expectation 100-continue is supported"))));
            }
            return null; // a body over the limit goes on to handleOversizedMessage
        }

        private FullHttpResponse tooLarge() {
            return Responses.closing(
                    Responses.error(ApiError.TOO_LARGE, "request body over " + maxContentLength() + " bytes"));
        }
    }
}
