package org.cloudtalk.solr;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.solr.metrics.SolrMetricsContext;
import org.cloudtalk.solr.replica.AdvisorMetrics;
import org.cloudtalk.solr.replica.Fallback;

/**
 * The advisor's metrics in Solr's node registry ({@code solr.node}), named {@code QUERY.<scope>.cloudtalk.*}:
 * {@code queries} (a timer: count and latency of the queries sent to CloudTalk), {@code cacheHits}, {@code answersUsed}
 * and {@code fallbacks.<cause>}.
 *
 * <p>Concurrency: the registered metrics are published through one volatile field; before Solr registers them (and
 * in a factory Solr never registers) the events are dropped.
 */
final class SolrAdvisorMetrics implements AdvisorMetrics {
    private record Registered(
            Timer queries, Counter cacheHits, Counter answersUsed, Map<Fallback, Counter> fallbacks) {}

    private volatile Registered registered;

    void register(SolrMetricsContext context, String scope) {
        String[] path = {"QUERY", scope, "cloudtalk"};
        Map<Fallback, Counter> fallbacks = new EnumMap<>(Fallback.class);
        for (Fallback cause : Fallback.values()) {
            fallbacks.put(cause, context.counter("fallbacks." + cause.metricName(), path));
        }
        registered = new Registered(
                context.timer("queries", path),
                context.counter("cacheHits", path),
                context.counter("answersUsed", path),
                fallbacks);
    }

    @Override
    public void queried(long nanos) {
        Registered metrics = registered;
        if (metrics != null) {
            metrics.queries().update(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void cacheHit() {
        Registered metrics = registered;
        if (metrics != null) {
            metrics.cacheHits().inc();
        }
    }

    @Override
    public void answerUsed() {
        Registered metrics = registered;
        if (metrics != null) {
            metrics.answersUsed().inc();
        }
    }

    @Override
    public void fellBack(Fallback cause) {
        Registered metrics = registered;
        if (metrics != null) {
            metrics.fallbacks().get(cause).inc();
        }
    }
}
