package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The endpoints of one distributed request, and the cache key of its answer: the aggregator's IP and, per shard (in
 * name order), the sorted distinct IPs of the hosts holding a usable replica.
 */
record PoolKey(String aggregator, SortedMap<String, List<String>> pools) {
    PoolKey {
        requireNonNull(aggregator, "aggregator is null");
        TreeMap<String, List<String>> sorted = new TreeMap<>();
        requireNonNull(pools, "pools is null")
                .forEach((shard, hosts) ->
                        sorted.put(shard, hosts.stream().distinct().sorted().toList()));
        pools = Collections.unmodifiableSortedMap(sorted);
    }

    /** True when no shard has a choice between hosts. */
    boolean nothingToDecide() {
        return pools.values().stream().allMatch(hosts -> hosts.size() <= 1);
    }
}
