package org.cloudtalk.solr.baseline;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * C3's replica ranking (Suresh et al., NSDI 2015), the formula of Elasticsearch's Adaptive Replica Selection: a
 * replica's score is
 *
 * <pre>  Ψ = R − S + q̂³ · S,   q̂ = 1 + os · n + q</pre>
 *
 * with R the moving average of the response time seen here, S that of the service time the replica reports (1/µ),
 * q that of its queue, os the requests outstanding from here to it and n the number of aggregators (C3's concurrency
 * compensation). Lower is better. A replica without figures scores 0 and is tried first — as in Elasticsearch, which
 * is why ARS herds onto new nodes. It sees only this node's own requests, and no CPU, disk or NIC figure.
 *
 * <p>Concurrency: thread-safe; each replica's figures are an immutable record replaced atomically in a concurrent map.
 */
public final class C3Ranking {
    private record Figures(double response, double service, double queue, int outstanding) {}

    private static final Figures NONE = new Figures(Double.NaN, Double.NaN, Double.NaN, 0);

    private final double alpha;
    private final int aggregators;
    private final Map<String, Figures> figures = new ConcurrentHashMap<>();

    /**
     * @param alpha weight of a new sample in the moving averages (Elasticsearch: 0.3)
     * @param aggregators n, the number of nodes sending requests to the replicas
     */
    public C3Ranking(double alpha, int aggregators) {
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1]: " + alpha);
        }
        if (aggregators < 1) {
            throw new IllegalArgumentException("aggregators must be at least 1: " + aggregators);
        }
        this.alpha = alpha;
        this.aggregators = aggregators;
    }

    /** A request went to {@code replica}. */
    public void sent(String replica) {
        figures.compute(replica, (key, old) -> {
            Figures current = old == null ? NONE : old;
            return new Figures(current.response, current.service, current.queue, current.outstanding + 1);
        });
    }

    /** A response came back from {@code replica}: its response time here, its service time and queue length there. */
    public void received(String replica, double responseSeconds, double serviceSeconds, double queue) {
        figures.compute(replica, (key, old) -> {
            Figures current = old == null ? NONE : old;
            return new Figures(
                    average(current.response, responseSeconds),
                    average(current.service, serviceSeconds),
                    average(current.queue, queue),
                    Math.max(0, current.outstanding - 1));
        });
    }

    /** Ψ in seconds; 0 for a replica without figures. */
    public double score(String replica) {
        Figures current = figures.getOrDefault(replica, NONE);
        if (Double.isNaN(current.response)) {
            return 0;
        }
        double queue = 1 + (double) current.outstanding * aggregators + current.queue;
        return current.response - current.service + queue * queue * queue * current.service;
    }

    /** The replicas that have answered at least once. */
    public java.util.Set<String> known() {
        return figures.entrySet().stream()
                .filter(entry -> !Double.isNaN(entry.getValue().response()))
                .map(Map.Entry::getKey)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** Sorts {@code choices} by score, best first; ties keep their order. */
    public <T> void order(List<T> choices, Function<T, String> replicaOf) {
        Map<T, Double> scores = new java.util.IdentityHashMap<>();
        choices.forEach(choice -> scores.put(choice, score(replicaOf.apply(choice))));
        choices.sort(Comparator.comparingDouble(scores::get));
    }

    private double average(double previous, double sample) {
        return Double.isNaN(previous) ? sample : alpha * sample + (1 - alpha) * previous;
    }
}
