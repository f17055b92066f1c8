package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.lang.Span;

/** A variable or flow name as written. */
public record Identifier(String value, Span span) implements Node {
    public Identifier {
        requireNonNull(value, "value is null");
        requireNonNull(span, "span is null");
    }

    @Override
    public String toString() {
        return value;
    }
}
