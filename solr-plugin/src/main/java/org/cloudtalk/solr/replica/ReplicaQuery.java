package org.cloudtalk.solr.replica;

import static org.cloudtalk.lang.build.QueryBuilder.bytes;
import static org.cloudtalk.lang.build.QueryBuilder.disk;
import static org.cloudtalk.lang.build.QueryBuilder.host;
import static org.cloudtalk.lang.build.QueryBuilder.rateOf;
import static org.cloudtalk.lang.build.QueryBuilder.variable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.build.QueryBuilder;

/**
 * One query for a whole distributed request (§5.4's pattern): a variable {@code s<i>} per shard over the hosts of its
 * replicas, each sending a response of {@code responseBytes} to the aggregator; with {@code diskReadBytes > 0} the
 * chosen host also reads that much from its disk at the rate it sends (§5.3's replica read). The variables are
 * {@code shared}: two shards may well be read from one host.
 */
record ReplicaQuery(String text, List<String> shards) {
    static ReplicaQuery of(PoolKey key, long responseBytes, long diskReadBytes) {
        QueryBuilder builder = new QueryBuilder();
        List<String> shards = new ArrayList<>();
        for (Map.Entry<String, List<String>> pool : key.pools().entrySet()) {
            String name = variableOf(shards.size());
            shards.add(pool.getKey());
            builder.sharedVariables(List.of(name), pool.getValue());
            String response = "f" + shards.size();
            builder.flow(response, variable(name), host(key.aggregator())).size(bytes(responseBytes));
            if (diskReadBytes > 0) {
                String read = "d" + shards.size();
                builder.flow(read, disk(), variable(name))
                        .size(bytes(diskReadBytes))
                        .rate(rateOf(response));
            }
        }
        return new ReplicaQuery(builder.toText(), List.copyOf(shards));
    }

    /** The variable CloudTalk binds for the shard at {@code index}. */
    static String variableOf(int index) {
        return "s" + index;
    }

    /** Every variable of the query, one per shard. */
    Set<String> variables() {
        Set<String> variables = new HashSet<>();
        for (int i = 0; i < shards.size(); i++) {
            variables.add(variableOf(i));
        }
        return variables;
    }
}
