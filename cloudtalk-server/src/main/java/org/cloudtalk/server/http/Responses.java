package org.cloudtalk.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.client.api.ApiError;
import org.cloudtalk.client.api.HttpApi.Field;
import org.cloudtalk.lang.QueryError;

/** Builds the API's responses: JSON bodies with Content-Length, errors as {@code {"code", "message", ...}}. */
final class Responses {
    /** Answers carry a score per candidate and variable: doubles are most of what is written (Schubfach's writer). */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .build();

    private Responses() {}

    static FullHttpResponse json(HttpResponseStatus status, Object body) {
        try {
            return bytes(status, JSON.writeValueAsBytes(body), "application/json");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a response", e);
        }
    }

    static FullHttpResponse text(HttpResponseStatus status, String body, String contentType) {
        return bytes(status, body.getBytes(StandardCharsets.UTF_8), contentType);
    }

    static FullHttpResponse error(ApiError code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(Field.CODE, code.name());
        body.put(Field.MESSAGE, message);
        return json(HttpResponseStatus.valueOf(code.httpStatus()), body);
    }

    /** 400 for a query that is not valid: the first error's position up front, every error in a list. */
    static FullHttpResponse queryErrors(List<QueryError> errors) {
        Map<String, Object> body = new LinkedHashMap<>();
        QueryError first = errors.get(0);
        body.put(Field.CODE, first.code().name());
        body.put(Field.MESSAGE, first.formatted());
        body.put(Field.LINE, first.span().line());
        body.put(Field.COLUMN, first.span().column());
        body.put(
                "errors",
                errors.stream()
                        .map(error -> {
                            Map<String, Object> item = new LinkedHashMap<>();
                            item.put(Field.CODE, error.code().name());
                            item.put(Field.MESSAGE, error.formatted());
                            item.put(Field.LINE, error.span().line());
                            item.put(Field.COLUMN, error.span().column());
                            return item;
                        })
                        .toList());
        return json(HttpResponseStatus.BAD_REQUEST, body);
    }

    /** The response with {@code Connection: close}: the server closes after writing it. */
    static FullHttpResponse closing(FullHttpResponse response) {
        HttpUtil.setKeepAlive(response, false);
        return response;
    }

    /**
     * {@code response}'s connection kept alive if the request's may be and the response was not made {@link #closing}:
     * its {@code Connection: close} then tells the client the connection ends with it.
     */
    static FullHttpResponse withConnection(FullHttpResponse response, boolean requestKeepAlive) {
        HttpUtil.setKeepAlive(response, requestKeepAlive && HttpUtil.isKeepAlive(response));
        return response;
    }

    /** The response as bytes, for writing ahead of the HTTP codec (before a request was decoded). */
    static ByteBuf encoded(FullHttpResponse response) {
        EmbeddedChannel encoder = new EmbeddedChannel(new HttpResponseEncoder());
        encoder.writeOutbound(response);
        CompositeByteBuf bytes = Unpooled.compositeBuffer();
        for (ByteBuf part = encoder.readOutbound(); part != null; part = encoder.readOutbound()) {
            bytes.addComponent(true, part);
        }
        encoder.finishAndReleaseAll();
        return bytes;
    }

    private static FullHttpResponse bytes(HttpResponseStatus status, byte[] body, String contentType) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }
}
