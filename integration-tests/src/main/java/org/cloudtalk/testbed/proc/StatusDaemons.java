package org.cloudtalk.testbed.proc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.status.cli.StatusDaemonMain;
import org.cloudtalk.status.cli.StatusProbe;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.KeyFile;
import org.cloudtalk.status.wire.MessageAuthenticator;
import org.cloudtalk.status.wire.StatusCodec;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.disk.HostDisk;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * One status daemon per host, inside the host's namespace, sampling the host's shaped veth with capacity = the link
 * rate; asked over the unshaped management link so that a probe never waits behind the measured traffic.
 */
public final class StatusDaemons {
    public static final int PORT = 7450;
    private static final String HEAP = "48m";

    private final StatusCodec codec;

    private StatusDaemons(StatusCodec codec) {
        this.codec = codec;
    }

    /** The deployment key shared by the daemons and the servers of the testbed. */
    public static Path keyFile(TestbedState state) {
        return state.runDir().resolve("status.key");
    }

    /** Starts a daemon in every host of {@code state} and waits until each one answers. */
    public static StatusDaemons start(TestbedState state, Processes processes) {
        TestbedConfig config = state.config();
        Path key = keyFile(state);
        try {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Files.write(key, secret);
            for (Host host : state.snapshot().hosts()) {
                startDaemon(state, processes, host, "daemon-" + host.index(), PORT, List.of(host.address()));
            }
        } catch (IOException e) {
            throw new TestbedException("cannot write daemon configuration: " + e.getMessage(), e);
        }
        StatusDaemons daemons = attach(state);
        for (Host host : state.snapshot().hosts()) {
            daemons.awaitAnswer(host, 30_000);
        }
        return daemons;
    }

    /**
     * Starts one daemon in {@code host} on {@code port} for {@code endpoints}, sampling the host's data link with the
     * link rate as capacity (and the host's own disk, if it has one); its configuration and log are named by
     * {@code role}. Does not wait for it to answer.
     */
    public static StartedProcess startDaemon(
            TestbedState state, Processes processes, Host host, String role, int port, List<String> endpoints)
            throws IOException {
        return startDaemon(
                state, processes, host, role, port, endpoints, state.config().diskMiBps());
    }

    /**
     * Stops {@code host}'s daemon and starts it again with {@code diskMiBps} as its disk's capacity (an operator's
     * configuration of that host's disk, e.g. once it has been made slow), and waits until it answers.
     */
    public void restartWithDiskCapacity(TestbedState state, Processes processes, Host host, int diskMiBps) {
        String role = "daemon-" + host.index();
        state.snapshot().processes().stream().filter(p -> p.role().equals(role)).forEach(processes::stop);
        try {
            startDaemon(state, processes, host, role, PORT, List.of(host.address()), diskMiBps);
        } catch (IOException e) {
            throw new TestbedException("cannot write daemon configuration: " + e.getMessage(), e);
        }
        awaitAnswer(host, 30_000);
    }

    private static StartedProcess startDaemon(
            TestbedState state,
            Processes processes,
            Host host,
            String role,
            int port,
            List<String> endpoints,
            int diskMiBps)
            throws IOException {
        TestbedConfig config = state.config();
        Path file = state.runDir().resolve(role + ".properties");
        List<String> lines = new ArrayList<>(List.of(
                "key.file=" + keyFile(state),
                "bind=0.0.0.0",
                "port=" + port,
                "endpoints=" + String.join(",", endpoints),
                "interface=" + host.link(),
                "nic.capacity.mbps=" + config.rateMbit(),
                "sample.interval.ms=250",
                "smoothing.window.ms=1000",
                "counters.log.interval.s=0"));
        // The host's own throttled disk, with its rate as capacity; without one the daemon samples the machine's disk
        // under /, which every host shares.
        for (HostDisk disk : state.snapshot().disks()) {
            if (disk.namespace().equals(host.namespace())) {
                lines.add("disk=" + Disks.deviceName(disk));
                lines.add("disk.read.capacity.mibps=" + diskMiBps);
                lines.add("disk.write.capacity.mibps=" + diskMiBps);
            }
        }
        lines.add("");
        Files.writeString(file, String.join("\n", lines));
        return processes.startJava(
                Optional.of(host),
                role,
                HEAP,
                StatusDaemonMain.class.getName(),
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                List.of("--config", file.toString()));
    }

    /** Talks to the daemons of a testbed that is already up. */
    public static StatusDaemons attach(TestbedState state) {
        try {
            return new StatusDaemons(new StatusCodec(new MessageAuthenticator(KeyFile.read(keyFile(state)))));
        } catch (IOException | IllegalArgumentException e) {
            throw new TestbedException("cannot read the testbed's key " + keyFile(state) + ": " + e.getMessage(), e);
        }
    }

    /** Asks {@code host}'s daemon for its endpoint's status over the management link. */
    public EndpointStatus probe(Host host) throws IOException, WireException {
        return probe(host, PORT, host.address());
    }

    /** Asks the daemon listening on {@code port} in {@code host} for {@code endpoint}'s status. */
    public EndpointStatus probe(Host host, int port, String endpoint) throws IOException, WireException {
        InetSocketAddress daemon = new InetSocketAddress(InetAddress.getByName(host.managementAddress()), port);
        return StatusProbe.ask(codec, daemon, List.of(InetAddress.getByName(endpoint)), 1000)
                .endpoints()
                .get(0);
    }

    private void awaitAnswer(Host host, long timeoutMillis) {
        awaitAnswer(host, PORT, host.address(), timeoutMillis);
    }

    /** Waits until the daemon on {@code port} in {@code host} answers for {@code endpoint}. */
    public void awaitAnswer(Host host, int port, String endpoint, long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try {
                probe(host, port, endpoint);
                return;
            } catch (SocketTimeoutException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new TestbedException("the status daemon of " + host.namespace() + " did not answer within "
                            + timeoutMillis / 1000 + " s; see its log");
                }
            } catch (IOException | WireException e) {
                throw new TestbedException(
                        "the status daemon of " + host.namespace() + " failed: " + e.getMessage(), e);
            }
        }
    }
}
