package org.cloudtalk.solr;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.routing.ReplicaListTransformer;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.PluginInfo;
import org.apache.solr.handler.component.HttpShardHandlerFactory;
import org.apache.solr.metrics.SolrMetricsContext;
import org.apache.solr.request.SolrQueryRequest;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.solr.replica.AdvisorConfig;
import org.cloudtalk.solr.replica.ClientHintSource;
import org.cloudtalk.solr.replica.ReplicaAdvisor;
import org.cloudtalk.solr.replica.Threads;

/**
 * Solr's HTTP shard handler factory, with CloudTalk choosing which replica of each shard a distributed request reads
 * first. Configure it in {@code solr.xml} as {@code <shardHandlerFactory class="org.cloudtalk.solr.CloudTalkShardHandlerFactory">}
 * with the {@code cloudtalk.*} init args of docs/solr-plugin.md; everything else is Solr's own.
 *
 * <p>Concurrency: set up once in {@link #init} and dropped in {@link #close} (volatile fields); the advisor is
 * thread-safe.
 */
public class CloudTalkShardHandlerFactory extends HttpShardHandlerFactory {
    private final SolrAdvisorMetrics metrics = new SolrAdvisorMetrics();
    private volatile ExecutorService http;
    private volatile ReplicaAdvisor advisor;

    @Override
    public void init(PluginInfo info) {
        // Ours first: a bad setting fails the start before Solr's own executors and HTTP client exist, and leaves
        // nothing of ours running either.
        Map<String, String> values = new HashMap<>();
        if (info.initArgs != null) {
            info.initArgs.forEach((key, value) -> {
                if (key != null && value != null) {
                    values.put(key, value.toString());
                }
            });
        }
        AdvisorConfig config = AdvisorConfig.from(values);
        ExecutorService executor = Executors.newCachedThreadPool(Threads.named("cloudtalk-solr-http"));
        try {
            CloudTalkClient client = new CloudTalkClient(
                    config.server(), config.queryTimeout(), executor, CloudTalkClient.PLACEMENT_ANSWER_BYTES);
            advisor = new ReplicaAdvisor(config, new ClientHintSource(client, config.evaluator()), metrics);
        } catch (RuntimeException e) {
            executor.shutdownNow();
            throw e;
        }
        http = executor;
        super.init(info);
    }

    @Override
    protected ReplicaListTransformer getReplicaListTransformer(SolrQueryRequest req) {
        ReplicaListTransformer solrOrder = super.getReplicaListTransformer(req);
        ReplicaAdvisor current = advisor;
        CoreContainer cores = req.getCoreContainer();
        if (current == null || cores == null || !cores.isZooKeeperAware()) {
            return solrOrder;
        }
        return new CloudTalkReplicaListTransformer(solrOrder, current, cores.getZkController());
    }

    @Override
    public void initializeMetrics(SolrMetricsContext parentContext, String scope) {
        super.initializeMetrics(parentContext, scope);
        metrics.register(getSolrMetricsContext(), scope);
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            ReplicaAdvisor closing = advisor;
            ExecutorService executor = http;
            // Dropped, not just closed: the JDK HTTP client's selector thread ends only once the client is unreachable,
            // and Solr may keep this factory referenced after shutdown.
            advisor = null;
            http = null;
            if (closing != null) {
                closing.close();
            }
            if (executor != null) {
                executor.shutdownNow();
                try {
                    executor.awaitTermination(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
