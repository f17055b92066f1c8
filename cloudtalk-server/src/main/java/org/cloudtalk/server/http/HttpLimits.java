package org.cloudtalk.server.http;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Bounds on the API's connections: how many may be open at once (excess ones are refused with a 503 as soon as they
 * are accepted), and how long a client may take to send one whole request once its first byte arrived (a request
 * trickled a header line at a time is answered 408 and closed).
 */
public record HttpLimits(int maxConnections, Duration requestDeadline) {
    public static final HttpLimits DEFAULT = new HttpLimits(1024, Duration.ofSeconds(10));

    public HttpLimits {
        requireNonNull(requestDeadline, "requestDeadline is null");
        if (maxConnections < 1 || requestDeadline.isNegative() || requestDeadline.isZero()) {
            throw new IllegalArgumentException("HTTP limits must be positive");
        }
    }
}
