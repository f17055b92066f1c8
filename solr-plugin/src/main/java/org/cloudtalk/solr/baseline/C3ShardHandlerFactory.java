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
 * <p>Concurrency: the ranking is thread-safe; everything else is set once in {@link #init}.
 */
public class C3ShardHandlerFactory extends HttpShardHandlerFactory {
    private volatile C3Ranking ranking = new C3Ranking(0.3, 1);

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

    private static void record(C3Ranking ranking, ShardResponse rsp) {
        String address = rsp.getShardAddress();
        SolrResponse response = rsp.getSolrResponse();
        if (address == null || response == null) {
            return;
        }
        // The shard address is the core's URL: the replica's base URL is all but its last segment.
        String trimmed = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
        String baseUrl = trimmed.substring(0, Math.max(0, trimmed.lastIndexOf('/')));
        double service = 0;
        if (response.getResponse() != null
                && response.getResponse().get("responseHeader") instanceof NamedList<?> header
                && header.get("QTime") instanceof Number qtime) {
            service = qtime.doubleValue() / 1e3;
        }
        ranking.received(baseUrl, response.getElapsedTime() / 1e3, service, 0);
    }
}
