package org.cloudtalk.server.query;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.client.api.ApiError;

/** A query the server will not take on; its {@link ApiError} carries the HTTP status the API answers with. */
public final class QueryRejectedException extends RuntimeException {
    private final ApiError reason;

    public QueryRejectedException(ApiError reason, String message) {
        super(message);
        this.reason = requireNonNull(reason, "reason is null");
    }

    public ApiError reason() {
        return reason;
    }
}
