package org.cloudtalk.server;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.server.http.ApiChannelInitializer;
import org.cloudtalk.server.http.ApiHandler;
import org.cloudtalk.server.http.HttpApiServer;
import org.cloudtalk.server.http.ServerMetrics;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.status.CapacityOnlyStatusSource;
import org.cloudtalk.server.status.Locator;
import org.cloudtalk.server.status.SameHostLocator;
import org.cloudtalk.server.status.StaticMapLocator;
import org.cloudtalk.server.status.StaticStatusSource;
import org.cloudtalk.server.status.StatusSource;
import org.cloudtalk.server.status.UdpStatusSource;
import org.cloudtalk.status.wire.KeyFile;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running CloudTalk server: status sources, the query service, its workers and the HTTP API. */
public final class CloudTalkServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CloudTalkServer.class);

    private final StatusSource dynamicStatus;
    private final StatusSource staticStatus;
    private final ThreadPoolExecutor workers;
    private final HttpApiServer api;
    private final ServerMetrics metrics;

    private CloudTalkServer(
            StatusSource dynamicStatus,
            StatusSource staticStatus,
            ThreadPoolExecutor workers,
            HttpApiServer api,
            ServerMetrics metrics) {
        this.dynamicStatus = dynamicStatus;
        this.staticStatus = staticStatus;
        this.workers = workers;
        this.api = api;
        this.metrics = metrics;
    }

    public static CloudTalkServer start(ServerConfig config) throws IOException, InterruptedException {
        requireNonNull(config, "config is null");
        StatusSource dynamicStatus;
        StatusSource staticStatus;
        if (config.keyFile().isPresent()) {
            Locator locator = config.locatorMap().isPresent()
                    ? StaticMapLocator.read(config.locatorMap().get())
                    : new SameHostLocator(config.daemonPort());
            StatusCodec codec = new StatusCodec(
                    new MessageAuthenticator(KeyFile.read(config.keyFile().get())));
            dynamicStatus = new UdpStatusSource(locator, codec, config.statusReuse());
            staticStatus = config.statusFile().isPresent()
                    ? new StaticStatusSource(config.statusFile().get())
                    : new CapacityOnlyStatusSource(dynamicStatus);
        } else {
            dynamicStatus = new StaticStatusSource(config.statusFile().orElseThrow());
            staticStatus = new CapacityOnlyStatusSource(dynamicStatus);
        }
        Reservations reservations = new Reservations(config.reservationHold());
        QueryService service = new QueryService(
                dynamicStatus, staticStatus, config.gatherWait(), config.limits(), config.sampling(), reservations);
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor workers = new ThreadPoolExecutor(
                config.workers(),
                config.workers(),
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.workerQueue()),
                runnable -> {
                    Thread thread = new Thread(runnable, "query-worker-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        ServerMetrics metrics = new ServerMetrics(reservations::size);
        Admission admission = new Admission(config.limits(), config.workersPerTenant());
        ApiHandler handler = new ApiHandler(service, admission, workers, metrics, config.defaultTimeout());
        HttpApiServer api = HttpApiServer.start(
                config.bind(),
                new ApiChannelInitializer(handler, config.limits().maxQueryChars() * 4),
                1);
        log.info(
                "CloudTalk server listening on http://{}:{}/ (status from {})",
                api.localAddress().getAddress().getHostAddress(),
                api.localAddress().getPort(),
                config.keyFile().isPresent()
                        ? "status daemons"
                        : config.statusFile().orElseThrow());
        return new CloudTalkServer(dynamicStatus, staticStatus, workers, api, metrics);
    }

    public InetSocketAddress localAddress() {
        return api.localAddress();
    }

    public ServerMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        api.close();
        workers.shutdownNow();
        staticStatus.close();
        dynamicStatus.close();
    }
}
