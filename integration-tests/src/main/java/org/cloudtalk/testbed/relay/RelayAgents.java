package org.cloudtalk.testbed.relay;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * A {@link RelayAgent} in each of a testbed's hosts, started and stopped as processes the testbed owns, and timed
 * copies along chains of them. The controller talks to a chain's source over its management link, so only the copy
 * itself crosses the shaped links.
 */
public final class RelayAgents implements AutoCloseable {
    public static final int PORT = 5301;
    private static final String HEAP = "32m";

    private final Testbed testbed;
    private final List<StartedProcess> started = new ArrayList<>();

    private RelayAgents(Testbed testbed) {
        this.testbed = testbed;
    }

    /** Starts an agent in every host of {@code testbed} and waits until each one accepts connections. */
    public static RelayAgents start(Testbed testbed) {
        return start(testbed, testbed.hosts());
    }

    /** Starts an agent in each of {@code hosts} and waits until each one accepts connections. */
    public static RelayAgents start(Testbed testbed, List<Host> hosts) {
        RelayAgents agents = new RelayAgents(testbed);
        try {
            for (Host host : hosts) {
                agents.started.add(testbed.processes()
                        .startJava(
                                Optional.of(host),
                                "relay-" + host.index(),
                                HEAP,
                                RelayAgent.class.getName(),
                                List.of(),
                                List.of(Integer.toString(PORT))));
            }
            for (Host host : hosts) {
                agents.awaitListening(host);
            }
            return agents;
        } catch (RuntimeException e) {
            agents.close();
            throw e;
        }
    }

    /**
     * Copies {@code bytes} from {@code source} along {@code chain} (each hop forwarding to the next as it receives),
     * and returns the time until the last hop had everything and the acknowledgement was back at the source.
     */
    public Duration copy(Host source, List<Host> chain, long bytes, Duration timeout) {
        try {
            return command(source, RelayAgent.COMMAND, chain, bytes, timeout);
        } catch (IOException e) {
            throw new TestbedException(
                    "the copy from " + source.namespace() + " along "
                            + chain.stream().map(Host::namespace).toList() + " failed: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Has {@code receiver} ask each of {@code senders} for {@code bytes} at once, over connections opened beforehand,
     * and returns the time until the last reply was in.
     */
    public Duration gather(Host receiver, List<Host> senders, long bytes, Duration timeout) {
        if (senders.isEmpty() || senders.size() > 255 || bytes < 1 || bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "a gather needs 1-255 senders and 1 B to 2 GiB each: " + senders.size() + ", " + bytes);
        }
        try {
            return command(receiver, RelayAgent.GATHER, senders, bytes, timeout);
        } catch (IOException e) {
            throw new TestbedException(
                    "the gather into " + receiver.namespace() + " from " + senders.size() + " hosts failed: "
                            + e.getMessage(),
                    e);
        }
    }

    /** Sends {@code type} with {@code hosts} and {@code bytes} to the agent of {@code at}; its answer is a time. */
    private static Duration command(Host at, byte type, List<Host> hosts, long bytes, Duration timeout)
            throws IOException {
        try (Socket control = new Socket()) {
            control.connect(new InetSocketAddress(InetAddress.getByName(at.managementAddress()), PORT), 2000);
            control.setSoTimeout((int) timeout.toMillis());
            DataOutputStream out = new DataOutputStream(control.getOutputStream());
            out.writeByte(type);
            InetAddress[] hops = new InetAddress[hosts.size()];
            for (int i = 0; i < hops.length; i++) {
                hops[i] = InetAddress.getByName(hosts.get(i).address());
            }
            new RelayAgent.Request(hops, bytes).write(out);
            out.flush();
            long nanos = new DataInputStream(new BufferedInputStream(control.getInputStream())).readLong();
            return Duration.ofNanos(nanos);
        }
    }

    @Override
    public void close() {
        for (StartedProcess process : started) {
            testbed.processes().stop(process);
        }
        started.clear();
    }

    private void awaitListening(Host host) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getByName(host.managementAddress()), PORT), 500);
                return; // an agent reads a request first: closing without one costs it nothing
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new TestbedException(
                            "the relay agent of " + host.namespace() + " did not listen within 30 s; see its log");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new TestbedException("interrupted", interrupted);
                }
            }
        }
    }
}
