package org.cloudtalk.status.server;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.sample.StatusSampler;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.ReplayGuard;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running status daemon: the sampler, the UDP server and the periodic counters line. */
public final class StatusDaemon implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StatusDaemon.class);
    /** Ids per replay-guard generation (2 × max skew): 2^19 allows 260,000 req/s at the default 1 s skew (16 MiB at most; the sets grow with load). */
    private static final int REPLAY_CAPACITY = 1 << 19;

    private final StatusSampler sampler;
    private final StatusServer server;
    private final DaemonCounters counters;
    private final ScheduledExecutorService reporter;

    private StatusDaemon(
            StatusSampler sampler, StatusServer server, DaemonCounters counters, ScheduledExecutorService reporter) {
        this.sampler = sampler;
        this.server = server;
        this.counters = counters;
        this.reporter = reporter;
    }

    public static StatusDaemon start(DaemonConfig config) throws InterruptedException, IOException {
        requireNonNull(config, "config is null");
        StatusSampler sampler = new StatusSampler(
                config.endpoints(),
                config.systemFiles(),
                config.sampleInterval(),
                config.smoothingWindow(),
                config.readTimeout());
        DaemonCounters counters = new DaemonCounters();
        StatusCodec codec = new StatusCodec(new MessageAuthenticator(config.key()));
        StatusServer server;
        try {
            server = StatusServer.start(
                    config.bindAddress(),
                    () -> new StatusRequestHandler(
                            codec,
                            sampler,
                            new ReplayGuard(config.maxClockSkewMillis(), REPLAY_CAPACITY),
                            new SourceRateLimiter(config.rateLimitPerSource(), config.rateLimitBurst()),
                            counters,
                            System::currentTimeMillis));
        } catch (InterruptedException | IOException | RuntimeException e) {
            sampler.close();
            throw e;
        }
        sampler.start();
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "status-counters");
            thread.setDaemon(true);
            return thread;
        });
        long seconds = config.countersLogInterval().toSeconds();
        if (seconds > 0) {
            reporter.scheduleAtFixedRate(
                    () -> log.info("counters: {}", counters.summary()), seconds, seconds, TimeUnit.SECONDS);
        }
        log.info(
                "status daemon listening on {} for {} (sampling every {} ms, smoothing over {} ms)",
                server.localAddress(),
                sampler.endpoints(),
                config.sampleInterval().toMillis(),
                config.smoothingWindow().toMillis());
        if (sampler.endpoints().size() > WireFormat.MAX_ENDPOINTS) {
            log.warn(
                    "this daemon serves {} endpoints, but one reply carries at most {}: a request for every endpoint"
                            + " (count 0, as `status probe` without --endpoint sends) gets the first {}; the server asks"
                            + " for its hosts by name and sees them all",
                    sampler.endpoints().size(),
                    WireFormat.MAX_ENDPOINTS,
                    WireFormat.MAX_ENDPOINTS);
        }
        return new StatusDaemon(sampler, server, counters, reporter);
    }

    public InetSocketAddress localAddress() {
        return server.localAddress();
    }

    public DaemonCounters counters() {
        return counters;
    }

    public StatusSampler sampler() {
        return sampler;
    }

    /** Logs the counters line now (the CLI does this on SIGHUP). */
    public void logCounters() {
        log.info("counters: {}", counters.summary());
    }

    @Override
    public void close() {
        server.close();
        sampler.close();
        reporter.shutdownNow();
        log.info("status daemon stopped; counters: {}", counters.summary());
    }
}
