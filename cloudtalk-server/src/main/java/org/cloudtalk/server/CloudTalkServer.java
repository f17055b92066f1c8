package org.cloudtalk.server;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.server.http.ApiChannelInitializer;
import org.cloudtalk.server.http.ApiHandler;
import org.cloudtalk.server.http.HttpApiServer;
import org.cloudtalk.server.http.ServerMetrics;
import org.cloudtalk.server.query.Admission;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Warmup;
import org.cloudtalk.server.status.CapacityOnlyStatusSource;
import org.cloudtalk.server.status.CountedStatusSource;
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
    /** Warm-up before the API opens: long enough for the parser and evaluators to be compiled. */
    private static final Duration WARM_UP = Duration.ofMillis(1500);
    /** Status round trips on loopback before the API opens: the first gather is then as fast as the next ones. */
    private static final Duration WARM_UP_STATUS = Duration.ofMillis(500);
    /** How long a stopping server waits for the queries it is answering. */
    private static final int STOP_WAIT_SECONDS = 2;

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

    /**
     * Starts the server.
     *
     * @throws ConfigException when a file the configuration names cannot be read or is invalid
     * @throws java.net.BindException when the API's address is taken or not local
     */
    public static CloudTalkServer start(ServerConfig config) throws ConfigException, IOException, InterruptedException {
        requireNonNull(config, "config is null");
        StatusSource dynamicStatus;
        StatusSource staticStatus;
        Optional<UdpStatusSource> daemons = Optional.empty();
        if (config.keyFile().isPresent()) {
            Locator locator = config.locatorMap().isPresent()
                    ? fromFile("locator.map", config.locatorMap().get(), StaticMapLocator::read)
                    : new SameHostLocator(config.daemonPort());
            StatusCodec codec = new StatusCodec(new MessageAuthenticator(
                    fromFile("status.key.file", config.keyFile().get(), KeyFile::read)));
            // Every file is read before the socket opens: a bad one leaves nothing running behind its error.
            Optional<StatusSource> statusFile = config.statusFile().isPresent()
                    ? Optional.of(fromFile("status.file", config.statusFile().get(), StaticStatusSource::new))
                    : Optional.empty();
            UdpStatusSource udp = new UdpStatusSource(locator, codec, config.statusReuse(), config.statusMaxAge());
            daemons = Optional.of(udp);
            dynamicStatus = udp;
            staticStatus = statusFile.orElseGet(() -> new CapacityOnlyStatusSource(udp));
        } else {
            dynamicStatus = fromFile("status.file", config.statusFile().orElseThrow(), StaticStatusSource::new);
            staticStatus = new CapacityOnlyStatusSource(dynamicStatus);
        }
        Reservations reservations = new Reservations(config.reservationHold(), config.reservationFade());
        ServerMetrics metrics = new ServerMetrics(reservations::size, dynamicStatus::rejected, dynamicStatus::stale);
        QueryService service = new QueryService(
                new CountedStatusSource(dynamicStatus, metrics::gathered),
                new CountedStatusSource(staticStatus, metrics::gathered),
                config.gatherWait(),
                config.limits(),
                config.sampling(),
                reservations,
                config.packet());
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
        Admission admission = new Admission(config.limits(), config.workersPerTenant());
        ApiHandler handler = new ApiHandler(service, admission, workers, metrics, config.defaultTimeout());
        HttpApiServer api = null;
        try {
            // Bound first, so that a taken port fails at once; connections wait in the backlog until the warm-up is
            // done.
            api = HttpApiServer.bind(
                    config.bind(),
                    new ApiChannelInitializer(handler, config.limits().maxQueryChars() * 4, config.http()),
                    1);
            if (daemons.isPresent()) {
                daemons.get().warmUp(WARM_UP_STATUS);
            }
            Warmup.run(WARM_UP);
            api.startAccepting();
        } catch (Throwable e) {
            // A process that embeds the server (a test, the quickstart) goes on after a failed start: leave no socket
            // or thread behind.
            if (api != null) {
                api.close();
            }
            closeAll(workers, staticStatus, dynamicStatus);
            throw e;
        }
        log.info(
                "CloudTalk server listening on http://{}/ (status from {})",
                Launchers.authority(api.localAddress()),
                config.keyFile().isPresent()
                        ? "status daemons"
                        : config.statusFile().orElseThrow());
        return new CloudTalkServer(dynamicStatus, staticStatus, workers, api, metrics);
    }

    private interface FileReader<T> {
        T read(Path file) throws IOException;
    }

    /** Reads a file that configuration key {@code key} names; any failure is that key's configuration error. */
    private static <T> T fromFile(String key, Path file, FileReader<T> reader) throws ConfigException {
        try {
            return reader.read(file);
        } catch (FileSystemException e) {
            // Its message is the path alone; say why instead.
            String reason = e instanceof NoSuchFileException
                    ? "no such file"
                    : e instanceof AccessDeniedException ? "permission denied" : String.valueOf(e.getReason());
            throw new ConfigException("Invalid value " + file + " for " + key + ": " + reason);
        } catch (IOException | RuntimeException e) {
            throw new ConfigException("Invalid value " + file + " for " + key + ": " + e.getMessage());
        }
    }

    public InetSocketAddress localAddress() {
        return api.localAddress();
    }

    public ServerMetrics metrics() {
        return metrics;
    }

    /**
     * Stops accepting connections, refuses the queries still queued (503), gives those running up to
     * {@value #STOP_WAIT_SECONDS} s to answer (interrupted, most answer 503 at once), sends what was answered, then
     * closes the connections and the status sources.
     */
    @Override
    public void close() {
        api.stopAccepting();
        for (Runnable queued : workers.shutdownNow()) {
            if (queued instanceof ApiHandler.QueryTask task) {
                task.refuse();
            }
        }
        try {
            workers.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        api.drain(Duration.ofSeconds(1));
        api.close();
        closeAll(workers, staticStatus, dynamicStatus);
    }

    private static void closeAll(ThreadPoolExecutor workers, StatusSource staticStatus, StatusSource dynamicStatus) {
        workers.shutdownNow();
        staticStatus.close();
        dynamicStatus.close();
    }
}
