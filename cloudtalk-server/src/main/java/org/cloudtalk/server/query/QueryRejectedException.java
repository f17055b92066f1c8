package org.cloudtalk.server.query;

import static java.util.Objects.requireNonNull;

/** A query the server will not take on; {@link Reason} maps to the HTTP status the API answers with. */
public final class QueryRejectedException extends RuntimeException {
    public enum Reason {
        /** 413: the text is longer than the tenant may send. */
        TOO_LARGE,
        /** 422: flows, variables, candidates or search space over the tenant's limits. */
        OVER_LIMITS,
        /** 429: the tenant is sending faster than its rate. */
        RATE_LIMITED,
        /** 422: valid, but it cannot be answered as asked (e.g. too few distinct candidates). */
        UNANSWERABLE,
        /** 503: no answer within the deadline. */
        TIMED_OUT,
        /** 503: the evaluator asked for is not available on this server (e.g. built without ns-3). */
        UNAVAILABLE
    }

    private final Reason reason;

    public QueryRejectedException(Reason reason, String message) {
        super(message);
        this.reason = requireNonNull(reason, "reason is null");
    }

    public Reason reason() {
        return reason;
    }
}
