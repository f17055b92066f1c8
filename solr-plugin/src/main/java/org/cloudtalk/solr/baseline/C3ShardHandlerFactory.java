package org.cloudtalk.solr.baseline;

import java.util.List;
import org.apache.solr.client.solrj.SolrResponse;
import org.apache.solr.client.solrj.routing.ReplicaListTransformer;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.PluginInfo;
import org.apache.solr.handler.component.HttpShardHandler;
import org.apache.solr.handler.component.HttpShardHandlerFactory;
import org.apache.solr.handler.component.ShardHandler;
import org.apache.solr.handler.component.ShardRequest;
import org.apache.solr.handler.component.ShardResponse;
import org.apache.solr.request.SolrQueryRequest;

/**
 * The ARS-like baseline: Solr's order, then each shard's replicas sorted by {@link C3Ranking} over this node's own
 * response times and the replicas' reported service times ({@code QTime}). Solr reports no queue length, so q is 0.
 * Init args: {@code c3.alpha} (default 0.3), {@code c3.aggregators} (default 1). For comparisons in the experiments.
 *
 * <p>Concurrency: the ranking and the set of base URLs are thread-safe; the ranking is replaced once, in
 * {@link #init}.
 */
public class C3ShardHandlerFactory extends HttpShardHandlerFactory {
    private volatile C3Ranking ranking = new C3Ranking(0.3, 1);
    /** The base URLs of the replicas ranked so far: responses are credited to them. */
    private final java.util.Set<String> baseUrls = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public void init(PluginInfo info) {
        super.init(info);
        double alpha = 0.3;
        int aggregators = 1;
        if (info.initArgs != null) {
            Object alphaArg = info.initArgs.get("c3.alpha");
            Object aggregatorsArg = info.initArgs.get("c3.aggregators");
            alpha = alphaArg == null ? alpha : Double.parseDouble(alphaArg.toString());
            aggregators = aggregatorsArg == null ? aggregators : Integer.parseInt(aggregatorsArg.toString());
        }
        ranking = new C3Ranking(alpha, aggregators);
    }

    /** The ranking this node's requests feed. */
    public C3Ranking ranking() {
        return ranking;
    }

    @Override
    protected ReplicaListTransformer getReplicaListTransformer(SolrQueryRequest req) {
        ReplicaListTransformer solrOrder = super.getReplicaListTransformer(req);
        C3Ranking current = ranking;
        return new ReplicaListTransformer() {
            @Override
            public <T> void transform(List<T> choices) {
                solrOrder.transform(choices);
                if (choices.isEmpty() || !(choices.get(0) instanceof Replica)) {
                    return;
                }
                choices.forEach(choice -> baseUrls.add(((Replica) choice).getBaseUrl()));
                current.order(choices, choice -> ((Replica) choice).getBaseUrl());
                current.sent(((Replica) choices.get(0)).getBaseUrl());
            }
        };
    }

    @Override
    public ShardHandler getShardHandler() {
        C3Ranking current = ranking;
        return new HttpShardHandler(this) {
            @Override
            protected ShardResponse transformResponse(ShardRequest sreq, ShardResponse rsp, String shard) {
                record(current, rsp);
                return super.transformResponse(sreq, rsp, shard);
            }
        };
    }

    private void record(C3Ranking ranking, ShardResponse rsp) {
        String address = rsp.getShardAddress();
        SolrResponse response = rsp.getSolrResponse();
        if (address == null || response == null) {
            return;
        }
        // A shard address is a core's URL or the node's base URL itself: credit the replica ranked under that base.
        String prefix = address.endsWith("/") ? address : address + "/";
        String baseUrl = baseUrls.stream()
                .filter(base -> prefix.startsWith(base + "/"))
                .max(java.util.Comparator.comparingInt(String::length))
                .orElse(null);
        if (baseUrl == null) {
            return;
        }
        double service = 0;
        if (response.getResponse() != null
                && response.getResponse().get("responseHeader") instanceof NamedList<?> header
                && header.get("QTime") instanceof Number qtime) {
            service = qtime.doubleValue() / 1e3;
        }
        ranking.received(baseUrl, response.getElapsedTime() / 1e3, service, 0);
    }
}
