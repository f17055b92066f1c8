package org.cloudtalk.server.state;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** The load of every host a query involves, by canonical address text; hosts without a figure are unreachable. */
public record ClusterState(Map<String, HostLoad> hosts) {
    public ClusterState {
        hosts = Map.copyOf(requireNonNull(hosts, "hosts is null"));
    }

    public HostLoad load(String address) {
        return hosts.getOrDefault(address, HostLoad.UNREACHABLE);
    }
}
