package org.cloudtalk.client;

import static java.util.Objects.requireNonNull;

/**
 * Why a query got no answer. {@link Kind} tells a caller what to do: fix the query, back off, or fall back to its
 * default placement.
 */
public final class CloudTalkException extends Exception {
    public enum Kind {
        /** 400: the query is not valid; {@link #line()}/{@link #column()} say where. */
        QUERY_ERROR,
        /** 413/422: too large or over the limits, or unanswerable as asked. */
        REFUSED,
        /** 429: over the tenant's rate; retry later. */
        RATE_LIMITED,
        /** 503, a timeout, a refused connection or a nonsense answer: use the default placement. */
        UNAVAILABLE
    }

    private final Kind kind;
    private final String code;
    private final int line;
    private final int column;

    public CloudTalkException(Kind kind, String code, String message, int line, int column, Throwable cause) {
        super(message, cause);
        this.kind = requireNonNull(kind, "kind is null");
        this.code = requireNonNull(code, "code is null");
        this.line = line;
        this.column = column;
    }

    public Kind kind() {
        return kind;
    }

    /** The server's error code (e.g. {@code UNDECLARED_VARIABLE}, {@code OVER_LIMITS}) or a client-side one. */
    public String code() {
        return code;
    }

    /** 1-based line of a query error, 0 otherwise. */
    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
