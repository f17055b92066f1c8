package org.cloudtalk.testbed.solr;

import java.util.List;

/** One search the load client sent: its latency from when it was due, and the hosts whose replicas answered it. */
public record Search(boolean ok, double latencyMs, List<String> replicaHosts) {
    public Search {
        replicaHosts = List.copyOf(replicaHosts);
    }

    /** Parses a line of the load client's CSV ({@code due_ms,latency_ms,ok,hosts}, hosts separated by ';'). */
    static Search parse(String line) {
        String[] fields = line.split(",", -1);
        List<String> hosts = fields[3].isEmpty() ? List.of() : List.of(fields[3].split(";"));
        return new Search(Boolean.parseBoolean(fields[2]), Double.parseDouble(fields[1]), hosts);
    }

    /** The hosts that answered the shard requests of the searches that succeeded, one entry per shard request. */
    public static List<String> shardReads(List<Search> searches) {
        return searches.stream()
                .filter(Search::ok)
                .flatMap(search -> search.replicaHosts().stream())
                .toList();
    }
}
