package org.cloudtalk.server.state;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * The load of every host a query involves, by canonical address text; hosts without a figure are unreachable. Two
 * views, which differ only where pseudo-reservations count: {@code hosts} as the heuristic scores them (a reservation
 * weighed by W against its {@code capacity - use / W}), {@code estimated} as the flow estimators take them (measured use
 * and reserved rates alike as traffic in the way, each at its rate).
 */
public record ClusterState(Map<String, HostLoad> hosts, Map<String, HostLoad> estimated) {
    /** A state without reservations: one view. */
    public ClusterState(Map<String, HostLoad> hosts) {
        this(hosts, hosts);
    }

    public ClusterState {
        boolean oneView = hosts == estimated;
        hosts = Map.copyOf(requireNonNull(hosts, "hosts is null"));
        estimated = oneView ? hosts : Map.copyOf(requireNonNull(estimated, "estimated is null"));
    }

    /** The heuristic's view of a host. */
    public HostLoad load(String address) {
        return hosts.getOrDefault(address, HostLoad.UNREACHABLE);
    }

    /** The flow estimators' view of a host. */
    public HostLoad estimatedLoad(String address) {
        return estimated.getOrDefault(address, HostLoad.UNREACHABLE);
    }
}
