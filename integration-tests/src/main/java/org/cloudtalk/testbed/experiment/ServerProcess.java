package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.CloudTalkException;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.server.cli.ServerMain;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Ports;
import org.cloudtalk.testbed.proc.StatusDaemons;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * A CloudTalk server for one run, in the root namespace (the control plane), heap 128 MiB: it reaches every host's
 * daemon over the unshaped management links through a locator map, and answers on a free port of loopback or, for
 * plugins running inside the hosts (a NameNode), of the root namespace's management address. Each query stands alone
 * (no pseudo-reservations between consecutive ones) unless the run's settings say otherwise.
 */
public final class ServerProcess implements AutoCloseable {
    private final Testbed testbed;
    private final StartedProcess process;
    private final CloudTalkClient client;
    private final URI uri;
    private final Path config;
    private final String query;

    private ServerProcess(Testbed testbed, StartedProcess process, URI uri, Path config, String query) {
        this.testbed = testbed;
        this.process = process;
        this.uri = uri;
        this.config = config;
        this.query = query;
        this.client = new CloudTalkClient(uri, Duration.ofSeconds(2));
    }

    /**
     * Starts a server whose locator knows every host's daemon and the {@code extraEndpoints} lines ({@code ENDPOINT
     * DAEMON_IP:PORT}), with {@code extraSettings} ({@code key=value}) after the defaults, and waits until it answers
     * {@code query}.
     */
    static ServerProcess start(Testbed testbed, List<String> extraEndpoints, List<String> extraSettings, String query) {
        return start(testbed, "127.0.0.1", extraEndpoints, extraSettings, query);
    }

    /**
     * The settings for pseudo-reservations in full for {@code holdMs}, then fading over {@code fadeMs} (a server started
     * here has none unless asked).
     */
    static List<String> reservations(long holdMs, long fadeMs) {
        return List.of("reservation.hold.ms=" + holdMs, "reservation.fade.ms=" + fadeMs);
    }

    /** The settings for the server's default pseudo-reservations, as an operator runs it. */
    static List<String> defaultReservations() {
        return reservations(
                ServerConfig.DEFAULT_RESERVATION_HOLD.toMillis(), ServerConfig.DEFAULT_RESERVATION_FADE.toMillis());
    }

    /**
     * Starts a server as {@link #start(Testbed, List, List, String)} does, listening on {@code bindAddress}: loopback
     * for the experiment's own queries, {@link Host#managementRootAddress} to be reachable from inside every host
     * over its management link.
     */
    public static ServerProcess start(
            Testbed testbed,
            String bindAddress,
            List<String> extraEndpoints,
            List<String> extraSettings,
            String query) {
        Path dir = testbed.runDir();
        int port = Ports.free(bindAddress);
        Path config;
        try {
            List<String> locator = new ArrayList<>(testbed.hosts().stream()
                    .map(h -> h.address() + " " + h.managementAddress() + ":" + StatusDaemons.PORT)
                    .toList());
            locator.addAll(extraEndpoints);
            Path map = Files.write(dir.resolve("locator.map"), locator);
            List<String> settings = new ArrayList<>(List.of(
                    "bind=" + bindAddress,
                    "port=" + port,
                    "status.key.file=" + StatusDaemons.keyFile(testbed.state()),
                    "locator.map=" + map,
                    "reservation.hold.ms=0"));
            settings.addAll(extraSettings);
            settings.add("");
            config = Files.writeString(dir.resolve("server.properties"), String.join("\n", settings));
        } catch (IOException e) {
            throw new TestbedException("cannot write the server's configuration: " + e.getMessage(), e);
        }
        return launch(testbed, config, URI.create("http://" + bindAddress + ":" + port), query);
    }

    private static ServerProcess launch(Testbed testbed, Path config, URI uri, String query) {
        StartedProcess process = testbed.processes()
                .startJava(
                        Optional.empty(),
                        "server",
                        "128m",
                        ServerMain.class.getName(),
                        // Each answer with the loads it rested on (QueryService at debug): what a run's post-mortem
                        // needs to tell a wrong choice from a forced one.
                        List.of(
                                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                                "-Dorg.slf4j.simpleLogger.log.org.cloudtalk.server.query.QueryService=debug",
                                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"),
                        List.of("--config", config.toString()));
        ServerProcess server = new ServerProcess(testbed, process, uri, config, query);
        try {
            server.awaitAnswer(query);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * A new server with this one's settings, on the same address and port (where the plugins were told to ask), once
     * it answers; this one must have been closed.
     */
    public ServerProcess relaunch() {
        if (process.handle().isPresent()) {
            throw new TestbedException("the CloudTalk server still runs: close it before relaunching it");
        }
        return launch(testbed, config, uri, query);
    }

    /** A one-flow query from {@code client} to any of {@code candidates}: enough to see that a server answers. */
    public static String oneHopQuery(Host client, List<Host> candidates) {
        return "B = (" + candidates.stream().map(Host::address).collect(java.util.stream.Collectors.joining(" "))
                + ")\nf1 " + client.address() + " -> B size 1M\n";
    }

    /** Where the server answers. */
    public URI uri() {
        return uri;
    }

    /** The answer to {@code query} with the heuristic; a refusal or a timeout fails the run. */
    QueryResult ask(String query) {
        return ask(query, EvaluatorName.HEURISTIC, Duration.ofSeconds(2));
    }

    /** The answer to {@code query} with {@code evaluator} within {@code deadline}; a refusal fails the run. */
    QueryResult ask(String query, EvaluatorName evaluator, Duration deadline) {
        try {
            return client.query(query, evaluator, false, false, deadline);
        } catch (CloudTalkException e) {
            throw new TestbedException("query failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        }
    }

    @Override
    public void close() {
        testbed.processes().stop(process);
    }

    private void awaitAnswer(String query) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                client.query(query, EvaluatorName.HEURISTIC, false, false, Duration.ofSeconds(2));
                return;
            } catch (CloudTalkException e) {
                if (System.nanoTime() > deadline) {
                    throw new TestbedException("the CloudTalk server did not answer within 30 s: " + e.getMessage(), e);
                }
                RunContext.pause(Duration.ofMillis(200));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestbedException("interrupted", e);
            }
        }
    }
}
