package org.cloudtalk.lang;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The one exception type of the language front end, for syntax and semantic errors alike. It carries every error
 * found, ordered by position; its message is their {@code line L:C: message} lines.
 */
public final class QueryException extends RuntimeException {
    private final List<QueryError> errors;

    public QueryException(List<QueryError> errors) {
        super(format(errors));
        this.errors = List.copyOf(requireNonNull(errors, "errors is null"));
        if (this.errors.isEmpty()) {
            throw new IllegalArgumentException("a QueryException needs at least one error");
        }
    }

    public QueryException(ErrorCode code, Span span, String message) {
        this(List.of(new QueryError(code, span, message)));
    }

    public List<QueryError> errors() {
        return errors;
    }

    /** The first error by position. */
    public QueryError first() {
        return errors.get(0);
    }

    private static String format(List<QueryError> errors) {
        return errors.stream().map(QueryError::formatted).collect(Collectors.joining("\n"));
    }
}
