package org.cloudtalk.status.wire;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A daemon's answer; {@code requestId} echoes the request's. */
public record StatusReply(long requestId, long timestampMillis, List<EndpointStatus> endpoints) {
    public StatusReply {
        endpoints = List.copyOf(requireNonNull(endpoints, "endpoints is null"));
        if (endpoints.size() > WireFormat.MAX_ENDPOINTS) {
            throw new IllegalArgumentException(
                    "at most " + WireFormat.MAX_ENDPOINTS + " endpoints per reply, not " + endpoints.size());
        }
    }
}
