package org.cloudtalk.benchmarks.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The load generators' HTTP/1.1: a keep-alive POST and a response reader, without a client library's overhead. */
final class RawHttp {
    private RawHttp() {}

    static byte[] post(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: "
                        + bytes.length + "\r\n\r\n" + body)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** One response: its status and its body as text. */
    record Response(int status, String body) {}

    /** Reads one response (headers and Content-Length body); returns its status. */
    static int readResponse(InputStream in) throws IOException {
        return read(in).status();
    }

    /** Reads one response (headers and Content-Length body). */
    static Response read(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int status = -1;
        int length = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c == '\r') {
                continue;
            }
            if (c != '\n') {
                line.append((char) c);
                continue;
            }
            String header = line.toString();
            line.setLength(0);
            if (status < 0) {
                status = Integer.parseInt(header.substring(9, 12));
            } else if (header.isEmpty()) {
                return new Response(status, new String(in.readNBytes(length), StandardCharsets.UTF_8));
            } else if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(header.substring(15).trim());
            }
        }
    }
}
