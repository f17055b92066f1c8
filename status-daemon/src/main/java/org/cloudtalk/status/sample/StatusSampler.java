package org.cloudtalk.status.sample;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.wire.EndpointStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every endpoint at a fixed interval on its own thread and publishes an immutable snapshot.
 *
 * <p>Concurrency: the sampler thread writes {@link #snapshot}, a volatile reference to an immutable value; request
 * handlers only read it, so answering never waits for sampling.
 */
public final class StatusSampler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StatusSampler.class);
    /** How long closing waits for a sampling cycle in progress. */
    private static final long STOP_WAIT_SECONDS = 2;
    /** The default of {@code read.timeout.ms}. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofMillis(500);

    /** Statuses as of {@code sampledAtMillis} (wall clock, for the sample age in replies). */
    public record Snapshot(Map<InetAddress, EndpointStatus> statuses, long sampledAtMillis) {
        public Snapshot {
            statuses = Map.copyOf(statuses);
        }
    }

    private final List<EndpointSampler> samplers = new ArrayList<>();
    private final List<InetAddress> endpoints = new ArrayList<>();
    private final Duration interval;
    private final BoundedReads reads;
    private final ScheduledExecutorService scheduler;
    private volatile Snapshot snapshot;

    /** With the default read timeout. */
    public StatusSampler(List<EndpointSettings> settings, SystemFiles files, Duration interval, Duration window) {
        this(settings, files, interval, window, DEFAULT_READ_TIMEOUT);
    }

    /** @param readTimeout longest wait for one counter read; a read that takes longer reports its endpoint fully used */
    public StatusSampler(
            List<EndpointSettings> settings,
            SystemFiles files,
            Duration interval,
            Duration window,
            Duration readTimeout) {
        requireNonNull(settings, "settings is null");
        this.reads = new BoundedReads(requireNonNull(readTimeout, "readTimeout is null"));
        this.interval = requireNonNull(interval, "interval is null");
        // Enough samples to span the window at this interval, plus the base sample.
        int maxSamples = (int) Math.max(2, window.toNanos() / Math.max(1, interval.toNanos()) + 2);
        for (EndpointSettings endpoint : settings) {
            samplers.add(new EndpointSampler(endpoint, files, reads, window.toNanos(), maxSamples));
            endpoints.add(endpoint.address());
        }
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "status-sampler");
            thread.setDaemon(true);
            return thread;
        });
        sampleNow();
    }

    public void start() {
        scheduler.scheduleAtFixedRate(this::sampleSafely, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The endpoints this daemon serves, in configuration order. */
    public List<InetAddress> endpoints() {
        return List.copyOf(endpoints);
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    /** Samples every endpoint once, now, and publishes the result. */
    public void sampleNow() {
        Map<InetAddress, EndpointStatus> statuses = new LinkedHashMap<>();
        for (EndpointSampler sampler : samplers) {
            statuses.put(sampler.settings().address(), sampler.sample());
        }
        snapshot = new Snapshot(statuses, System.currentTimeMillis());
    }

    private void sampleSafely() {
        try {
            sampleNow();
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again; the daemon must keep sampling.
            log.error("sampling failed", e);
        }
    }

    @Override
    public void close() {
        // A cycle in progress finishes first: interrupted, or left to a closed read pool, it reported each of its
        // endpoints fully used with a warning of its own on every normal stop.
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            scheduler.shutdownNow();
            Thread.currentThread().interrupt();
        }
        reads.close();
    }
}
