package org.cloudtalk.client.api;

/**
 * The API's error codes (the {@code code} field of an error) other than the query language's own, each with the HTTP
 * status it comes with. A query that is not valid answers 400 with the language's code instead (e.g.
 * {@code UNDECLARED_VARIABLE}) and its line and column.
 */
public enum ApiError {
    /** A malformed HTTP request, or bad percent-encoding in its URI. */
    BAD_REQUEST(400),
    /** A query parameter with a value the API does not take. */
    BAD_PARAMETER(400),
    NOT_FOUND(404),
    METHOD_NOT_ALLOWED(405),
    /** The whole request did not arrive within {@code http.request.deadline.ms}. */
    REQUEST_TIMEOUT(408),
    /** The query text is longer than the tenant may send, or the body over the server's limit. */
    TOO_LARGE(413),
    /** An {@code Expect} other than {@code 100-continue}. */
    EXPECTATION_FAILED(417),
    /** Flows, variables, candidates or search space over the tenant's limits. */
    OVER_LIMITS(422),
    /** Valid, but it cannot be answered as asked (e.g. too few distinct candidates). */
    UNANSWERABLE(422),
    /** The tenant is sending faster than its rate, or has too many queries in flight. */
    RATE_LIMITED(429),
    /** No answer within the query's deadline. */
    TIMED_OUT(503),
    /** The evaluator asked for is not available here (e.g. built without ns-3), or the server is stopping. */
    UNAVAILABLE(503),
    /** Every worker is busy and the queue is full. */
    OVERLOADED(503),
    /** The server holds {@code http.max.connections} connections already. */
    TOO_MANY_CONNECTIONS(503),
    /** A defect of the server: the cause is in its log. */
    INTERNAL(503),
    /** A request line of another HTTP than 1.x (an HTTP/2 client's preface, say): the API speaks HTTP/1.1. */
    HTTP_VERSION_NOT_SUPPORTED(505);

    private final int httpStatus;

    ApiError(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
