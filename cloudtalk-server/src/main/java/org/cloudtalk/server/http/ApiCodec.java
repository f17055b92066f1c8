package org.cloudtalk.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;

/**
 * HTTP/1.1 framing for the API: Netty's request decoder and response encoder, as {@code HttpServerCodec} pairs them,
 * plus the rule of RFC 9112 §6.1 that it leaves out: a request with both {@code Transfer-Encoding} and
 * {@code Content-Length} (a request-smuggling attempt, or a broken client), or with {@code Transfer-Encoding} in
 * HTTP/1.0, is answered and then its connection is closed, so that nothing after it is read with framing a proxy in
 * front may have read otherwise.
 * Responses to {@code HEAD} requests carry the headers of the {@code GET} answer and no body.
 *
 * <p>Concurrency: one instance per channel, used on its event loop only.
 */
final class ApiCodec extends CombinedChannelDuplexHandler<HttpRequestDecoder, HttpResponseEncoder> {
    /** The methods of the requests not answered yet, in order: the encoder must know which answers are to HEAD. */
    private final Queue<HttpMethod> unanswered = new ArrayDeque<>();

    ApiCodec(int maxInitialLine, int maxHeaders, int maxChunk) {
        init(
                new RequestDecoder(new HttpDecoderConfig()
                        .setMaxInitialLineLength(maxInitialLine)
                        .setMaxHeaderSize(maxHeaders)
                        .setMaxChunkSize(maxChunk)),
                new ResponseEncoder());
    }

    private final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
            int before = out.size();
            super.decode(ctx, buffer, out);
            for (int i = before; i < out.size(); i++) {
                if (out.get(i) instanceof HttpRequest request) {
                    unanswered.add(request.method());
                    // Netty calls the hook below only for HTTP/1.1 and chunked; any other Transfer-Encoding with a
                    // Content-Length, or one in HTTP/1.0, is framed by one side's reading and not the other's too.
                    HttpHeaders headers = request.headers();
                    if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                            && (headers.contains(HttpHeaderNames.CONTENT_LENGTH)
                                    || !HttpVersion.HTTP_1_1.equals(request.protocolVersion()))) {
                        HttpUtil.setKeepAlive(request, false);
                    }
                }
            }
        }

        @Override
        protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
            super.handleTransferEncodingChunkedWithContentLength(message); // drops Content-Length: read as chunked
            HttpUtil.setKeepAlive(message, false);
        }
    }

    private final class ResponseEncoder extends HttpResponseEncoder {
        @Override
        protected boolean isContentAlwaysEmpty(HttpResponse response) {
            if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                return super.isContentAlwaysEmpty(response); // 100 Continue: the request's answer is still to come
            }
            return HttpMethod.HEAD.equals(unanswered.poll()) || super.isContentAlwaysEmpty(response);
        }
    }
}
