package org.cloudtalk.client.api;

/**
 * The server's HTTP API as both sides see it: paths, query parameters and JSON field names. The server answers by
 * these names and the client reads them; neither spells them on its own (docs/server.md documents them).
 */
public final class HttpApi {
    /** {@code POST} a query's text; the answer is JSON. */
    public static final String QUERY_PATH = "/v1/query";
    /** {@code GET} the Prometheus text exposition. */
    public static final String METRICS_PATH = "/metrics";
    /** {@code GET} {@code {"status":"ok"}} while the server serves. */
    public static final String HEALTH_PATH = "/healthz";

    /** The longest deadline a query may ask for ({@link Param#TIMEOUT_MS}). */
    public static final long MAX_TIMEOUT_MILLIS = 60_000;

    /** The longest query text any server accepts: the upper bound of its {@code limits.query.chars}. */
    public static final int MAX_QUERY_CHARS = 16 << 20;

    private HttpApi() {}

    /** Query parameters of {@link #QUERY_PATH}. */
    public static final class Param {
        /** An {@link EvaluatorName}'s wire name; default {@code refined}. */
        public static final String EVALUATOR = "evaluator";
        /** {@link #DYNAMIC} (default) or {@link #STATIC}: judge by current load or by capacities only. */
        public static final String INFO = "info";

        public static final String DYNAMIC = "dynamic";
        public static final String STATIC = "static";
        /** {@code true} or {@code false} (default): also return each candidate's score. */
        public static final String EXPLAIN = "explain";
        /** The query's deadline in milliseconds, 1 to {@link #MAX_TIMEOUT_MILLIS}. */
        public static final String TIMEOUT_MS = "timeoutMs";

        private Param() {}
    }

    /** JSON fields of an answer and of an error. */
    public static final class Field {
        public static final String BINDINGS = "bindings";
        public static final String EVALUATOR = "evaluator";
        public static final String ESTIMATED_COMPLETION_SECONDS = "estimatedCompletionSeconds";
        public static final String STATUS = "status";
        public static final String STATUS_ASKED = "asked";
        public static final String STATUS_ANSWERED = "answered";
        public static final String STATUS_REUSED = "reused";
        public static final String STATUS_SAMPLED = "sampled";
        public static final String STATUS_MISSING = "missing";
        public static final String ELAPSED_MICROS = "elapsedMicros";
        public static final String NOTES = "notes";
        public static final String EXPLAIN = "explain";
        /** An explained candidate that no resource constrains. */
        public static final String UNCONSTRAINED = "unconstrained";

        public static final String CODE = "code";
        public static final String MESSAGE = "message";
        public static final String LINE = "line";
        public static final String COLUMN = "column";
        public static final String ERRORS = "errors";

        private Field() {}
    }
}
