package org.cloudtalk.hadoop.hint;

import static java.util.Objects.requireNonNull;

import java.util.EnumMap;
import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableQuantiles;
import org.apache.hadoop.metrics2.lib.MutableRate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Hadoop metrics2 source for one plugin: queries sent, answers used, items placed as answered or overruled by the
 * host's rules, fallbacks by cause, and the time the host waited for each query (µs, average and quantiles over
 * 60 s). Registered with the daemon's metrics system, so it shows in its {@code /jmx} as
 * {@code Hadoop:service=<daemon>,name=<source name>}.
 *
 * <p>Concurrency: thread-safe; the mutable metrics synchronise themselves.
 */
public final class HintMetrics implements MetricsSource {
    private static final Logger log = LoggerFactory.getLogger(HintMetrics.class);

    private final MetricsRegistry registry;
    private final MutableCounterLong queries;
    private final MutableCounterLong answersUsed;
    private final MutableCounterLong answersUnused;
    private final MutableCounterLong staleAnswersUsed;
    private final MutableCounterLong choicesAsAnswered;
    private final MutableCounterLong choicesOverruled;
    private final Map<Fallback, MutableCounterLong> fallbacks = new EnumMap<>(Fallback.class);
    private final MutableRate latency;
    private final MutableQuantiles latencyQuantiles;

    private HintMetrics(String sourceName) {
        registry = new MetricsRegistry(sourceName).setContext("cloudtalk");
        queries = registry.newCounter("Queries", "Queries sent to the CloudTalk server", 0L);
        answersUsed = registry.newCounter("AnswersUsed", "Answers (or parts of one) that decided a choice", 0L);
        answersUnused = registry.newCounter(
                "AnswersUnused", "Parts of answers dropped unused (e.g. chains for blocks that came too late)", 0L);
        staleAnswersUsed = registry.newCounter(
                "StaleAnswersUsed", "Earlier answers used again because the server gave no usable one in time", 0L);
        choicesAsAnswered =
                registry.newCounter("ChoicesAsAnswered", "Items placed where the answer said (e.g. replicas)", 0L);
        choicesOverruled = registry.newCounter(
                "ChoicesOverruled", "Items the host system's own rules placed elsewhere than the answer said", 0L);
        for (Fallback cause : Fallback.values()) {
            fallbacks.put(
                    cause,
                    registry.newCounter(cause.metricName(), "Default choices made because of " + cause.name(), 0L));
        }
        latency = registry.newRate("QueryLatencyMicros", "Time waited for the server per query, µs", false);
        latencyQuantiles = registry.newQuantiles(
                "QueryLatency60s", "Time waited per query over 60 s, µs", "Queries", "Micros", 60);
    }

    /**
     * A source registered with the process's metrics system under {@code sourceName}. A process that cannot register
     * it (a name clash, a metrics system in a bad state) still gets working counters: metrics never stop a plugin.
     */
    public static HintMetrics register(String sourceName, String description) {
        HintMetrics metrics = new HintMetrics(requireNonNull(sourceName, "sourceName is null"));
        try {
            DefaultMetricsSystem.instance().register(sourceName, description, metrics);
        } catch (MetricsException e) {
            log.warn("CloudTalk metrics source {} not registered: {}", sourceName, e.getMessage());
        }
        return metrics;
    }

    void query(long waitedNanos) {
        queries.incr();
        long micros = waitedNanos / 1000;
        latency.add(micros);
        latencyQuantiles.add(micros);
    }

    public void answerUsed() {
        answersUsed.incr();
    }

    public void answersUnused(int parts) {
        answersUnused.incr(parts);
    }

    public long answersUnused() {
        return answersUnused.value();
    }

    /** An earlier answer decided a choice because the server gave no usable one (its cause counted as a fallback). */
    public void staleAnswerUsed() {
        staleAnswersUsed.incr();
    }

    public long staleAnswersUsed() {
        return staleAnswersUsed.value();
    }

    /** One item of a used answer was placed where the answer said ({@code asAnswered}) or, by the host's rules, not. */
    public void chose(boolean asAnswered) {
        (asAnswered ? choicesAsAnswered : choicesOverruled).incr();
    }

    public long choicesAsAnswered() {
        return choicesAsAnswered.value();
    }

    public long choicesOverruled() {
        return choicesOverruled.value();
    }

    void fallback(Fallback cause) {
        fallbacks.get(cause).incr();
    }

    public long queries() {
        return queries.value();
    }

    public long answersUsed() {
        return answersUsed.value();
    }

    public long fallbacks(Fallback cause) {
        return fallbacks.get(cause).value();
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        registry.snapshot(collector.addRecord(registry.info()), all);
    }
}
