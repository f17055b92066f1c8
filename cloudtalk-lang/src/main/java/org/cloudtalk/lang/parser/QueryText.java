package org.cloudtalk.lang.parser;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;

/**
 * A query's text from its bytes, which must be UTF-8: bytes that are not would otherwise become U+FFFD and be reported
 * as an unexpected character '\uFFFD', which says nothing of the real fault.
 */
public final class QueryText {
    private QueryText() {}

    /** @throws QueryException (SYNTAX_ERROR) at the line and column of the first byte that is not UTF-8 */
    public static String decode(byte[] bytes) {
        return decode(ByteBuffer.wrap(bytes));
    }

    /**
     * The text of the bytes {@code in} has left, read without a copy of them (a request body, say).
     *
     * @throws QueryException (SYNTAX_ERROR) at the line and column of the first byte that is not UTF-8
     */
    public static String decode(ByteBuffer in) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        int first = in.position();
        CharBuffer out = CharBuffer.allocate(in.remaining());
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            out.flip();
            if (out.length() > 0 && out.charAt(0) == '\uFEFF') {
                out.get(); // a byte order mark before the query: not a column of it, as the parser skips it
            }
            throw new QueryException(
                    ErrorCode.SYNTAX_ERROR,
                    position(out),
                    "not valid UTF-8 text (byte " + (in.position() - first) + " of the query)");
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** Where the text decoded so far ends: lines end at LF, CR LF or a lone CR, as the parser counts them. */
    private static Span position(CharSequence before) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < before.length(); i++) {
            char c = before.charAt(i);
            boolean crLf = c == '\r' && i + 1 < before.length() && before.charAt(i + 1) == '\n';
            if (c == '\n' || c == '\r' && !crLf) {
                line++;
                column = 1;
            } else if (!crLf && !Character.isLowSurrogate(c)) {
                column++; // in code points, as the lexer counts
            }
        }
        return Span.at(line, column);
    }
}
