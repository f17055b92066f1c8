package org.cloudtalk.lang;

import static java.util.Objects.requireNonNull;

/** One problem with a query: what ({@link ErrorCode}), where ({@link Span}) and a message for a person. */
public record QueryError(ErrorCode code, Span span, String message) {
    public QueryError {
        requireNonNull(code, "code is null");
        requireNonNull(span, "span is null");
        requireNonNull(message, "message is null");
    }

    /** {@code line L:C: message}, or just the message for a node built without a source position. */
    public String formatted() {
        return span.isKnown() ? "line " + span.line() + ":" + span.column() + ": " + message : message;
    }

    @Override
    public String toString() {
        return formatted();
    }
}
