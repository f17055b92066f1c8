package org.cloudtalk.solr.replica;

import java.util.Locale;

/** Why a request kept Solr's own replica order; each cause is a metric of its own. */
public enum Fallback {
    /** No answer within the deadline (the late answer still fills the cache). */
    DEADLINE,
    /** The server is down or unreachable, or its answer was unreadable. */
    UNAVAILABLE,
    /** The server answered with an error: the query was refused, over limits or rate limited. */
    REJECTED,
    /** The answer bound a shard to a host that holds none of its replicas. */
    NOT_A_REPLICA,
    /** A replica's or the aggregator's node could not be mapped to an endpoint IP. */
    UNMAPPED,
    /** The plugin's own query queue was full. */
    OVERLOADED,
    /** Anything unexpected (logged). */
    ERROR;

    /** The metric name's suffix. */
    public String metricName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
