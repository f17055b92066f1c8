package org.cloudtalk.solr;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.solr.client.solrj.routing.ReplicaListTransformer;
import org.apache.solr.cloud.ZkController;
import org.apache.solr.common.cloud.ClusterState;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.cloudtalk.solr.replica.Advice;
import org.cloudtalk.solr.replica.ReplicaAdvisor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Orders one request's replicas: Solr's order first ({@code shards.preference} and its defaults), then the replicas on
 * the host CloudTalk chose for the shard moved to the front. Solr calls {@link #transform} once per shard; the first
 * call for a collection asks the advisor about all of its shards, the others reuse that advice.
 *
 * <p>Concurrency: one instance per request, used by the thread preparing that request only.
 */
final class CloudTalkReplicaListTransformer implements ReplicaListTransformer {
    private static final Logger log = LoggerFactory.getLogger(CloudTalkReplicaListTransformer.class);

    private final ReplicaListTransformer solrOrder;
    private final ReplicaAdvisor advisor;
    private final ZkController zk;
    private final Map<String, Advice> byCollection = new HashMap<>();

    CloudTalkReplicaListTransformer(ReplicaListTransformer solrOrder, ReplicaAdvisor advisor, ZkController zk) {
        this.solrOrder = requireNonNull(solrOrder, "solrOrder is null");
        this.advisor = requireNonNull(advisor, "advisor is null");
        this.zk = requireNonNull(zk, "zk is null");
    }

    @Override
    public <T> void transform(List<T> choices) {
        solrOrder.transform(choices);
        // Explicit shard URLs (the shards parameter) are not replicas CloudTalk can tell apart: Solr's order stays.
        if (choices.size() < 2 || !(choices.get(0) instanceof Replica first)) {
            return;
        }
        try {
            Advice advice = byCollection.computeIfAbsent(first.getCollection(), this::advise);
            advice.order(first.getShard(), choices, choice -> ((Replica) choice).getNodeName());
        } catch (RuntimeException e) {
            // The advisor never throws; this guards reading the cluster state. A plugin never fails a query.
            log.warn("Keeping Solr's replica order for shard {}", first.getShard(), e);
        }
    }

    private Advice advise(String collection) {
        ClusterState state = zk.getClusterState();
        DocCollection docs = state.getCollectionOrNull(collection);
        Map<String, List<String>> shardNodes = new TreeMap<>();
        if (docs != null) {
            Set<String> live = state.getLiveNodes();
            for (Slice slice : docs.getActiveSlices()) {
                shardNodes.put(
                        slice.getName(),
                        slice.getReplicas().stream()
                                .filter(replica -> replica.isActive(live))
                                .map(Replica::getNodeName)
                                .toList());
            }
        }
        return advisor.advise(zk.getNodeName(), shardNodes);
    }
}
