package org.cloudtalk.status.wire;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.util.List;

/** Asks a daemon for the status of some of its endpoints (all of them when the list is empty). */
public record StatusRequest(long requestId, long timestampMillis, List<InetAddress> endpoints) {
    public StatusRequest {
        endpoints = List.copyOf(requireNonNull(endpoints, "endpoints is null"));
        if (endpoints.size() > WireFormat.MAX_ENDPOINTS) {
            throw new IllegalArgumentException(
                    "at most " + WireFormat.MAX_ENDPOINTS + " endpoints per request, not " + endpoints.size());
        }
    }
}
