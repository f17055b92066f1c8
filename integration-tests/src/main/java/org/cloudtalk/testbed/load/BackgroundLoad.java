package org.cloudtalk.testbed.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.disk.HostDisk;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * Background traffic that makes chosen hosts busy, the same way in every experiment. {@link #busy} saturates both
 * directions of each chosen host's access link with long-lived TCP flows in a ring (each busy host sends to the
 * next); {@link #udpBlast} sends unresponsive UDP at 1.5 x the link rate from one host into another, {@link
 * #udpBlastsFromOutside} into hosts from the testbed's outside namespace (§5.3); {@link #diskHogs} keeps
 * hosts' throttled disks busy. The load knows which links it meant to saturate, for the fidelity check. {@link #close} stops every process it started.
 *
 * <p>Concurrency: not thread-safe; one experiment thread drives it.
 */
public final class BackgroundLoad implements AutoCloseable {
    private static final int TCP_PORT = 5201;
    private static final int UDP_PORT = 5202;

    private final Testbed testbed;
    private final List<StartedProcess> started = new ArrayList<>();
    private final Set<Link> saturated = new LinkedHashSet<>();
    private final Set<Host> tcpServers = new java.util.HashSet<>();

    public BackgroundLoad(Testbed testbed) {
        this.testbed = testbed;
        Iperf3.ensureInstalled();
    }

    /** Makes {@code hosts} (at least two) busy in both directions for {@code duration}. */
    public BackgroundLoad busy(List<Host> hosts, Duration duration) {
        if (hosts.size() < 2) {
            throw new TestbedException("Invalid value " + hosts.size() + " for busy hosts: TCP load needs at least 2");
        }
        for (int i = 0; i < hosts.size(); i++) {
            tcpFlow(hosts.get(i), hosts.get((i + 1) % hosts.size()), duration);
        }
        return this;
    }

    /** One long-lived TCP flow from each of {@code senders} to the receiver at the same position. */
    public BackgroundLoad flows(List<Host> senders, List<Host> receivers, Duration duration) {
        if (senders.size() != receivers.size()) {
            throw new TestbedException("flows need one receiver per sender: " + senders.size() + " senders, "
                    + receivers.size() + " receivers");
        }
        for (int i = 0; i < senders.size(); i++) {
            tcpFlow(senders.get(i), receivers.get(i), duration);
        }
        return this;
    }

    private void tcpFlow(Host from, Host to, Duration duration) {
        if (tcpServers.add(to)) {
            startServer(to, TCP_PORT, "tcp");
        }
        start(
                from,
                "iperf-tcp-" + from.index() + "-" + to.index(),
                List.of(
                        "iperf3",
                        "-c",
                        to.address(),
                        "-p",
                        Integer.toString(TCP_PORT),
                        "-t",
                        seconds(duration),
                        // Reno: BBR leaves a ring of shaped links ~50% used (measured), reno fills them.
                        "-C",
                        "reno",
                        "--connect-timeout",
                        "3000"));
        saturated.add(new Link(from, Link.Direction.UPLOAD));
        saturated.add(new Link(to, Link.Direction.DOWNLOAD));
    }

    /** Blasts UDP from {@code from} into {@code into} at 1.5 x the link rate for {@code duration}. */
    public BackgroundLoad udpBlast(Host from, Host into, Duration duration) {
        startServer(into, UDP_PORT, "udp");
        long bitsPerSecond = testbed.config().rateBits() * 3 / 2;
        start(from, "iperf-udp-" + from.index() + "-" + into.index(), udpClient(into, bitsPerSecond, duration));
        saturated.add(new Link(from, Link.Direction.UPLOAD));
        saturated.add(new Link(into, Link.Direction.DOWNLOAD));
        return this;
    }

    /**
     * Blasts unresponsive UDP into each of {@code hosts} from outside the cluster (the testbed's outside namespace,
     * §5.3's "iperf connections from outside the Hadoop cluster") at {@code shareOfRate} of the link rate for {@code
     * duration}: only the blasted host's download carries it, and a TCP flow into that host gets what the blast
     * leaves.
     */
    public BackgroundLoad udpBlastsFromOutside(List<Host> hosts, double shareOfRate, Duration duration) {
        if (!(shareOfRate > 0 && shareOfRate <= 1.5)) {
            throw new TestbedException("Invalid value " + shareOfRate + " for blast share of the link rate: (0, 1.5]");
        }
        long bitsPerSecond = (long) (testbed.config().rateBits() * shareOfRate);
        for (Host into : hosts) {
            startServer(into, UDP_PORT, "udp");
            started.add(testbed.processes()
                    .startInNamespace(
                            testbed.outsideNamespace(),
                            "iperf-udp-outside-" + into.index(),
                            udpClient(into, bitsPerSecond, duration)));
            if (shareOfRate >= 1) {
                saturated.add(new Link(into, Link.Direction.DOWNLOAD));
            }
        }
        return this;
    }

    private static List<String> udpClient(Host into, long bitsPerSecond, Duration duration) {
        return List.of(
                "iperf3",
                "-c",
                into.address(),
                "-p",
                Integer.toString(UDP_PORT),
                "-u",
                "-b",
                Long.toString(bitsPerSecond),
                "-l",
                "1400",
                "-t",
                seconds(duration));
    }

    /** What a disk hog does: continuous large buffered writes into its host's data directory, or reads of its disk. */
    public enum DiskHog {
        WRITE,
        READ
    }

    /**
     * Keeps the throttled disks of {@code hosts} busy for {@code duration}: WRITE rewrites a 512 MiB file in 1 MiB
     * buffered writes, as a DataNode writes, held to the disk's rate by its dirty limit, so it takes its share of the
     * disk from other writers (a direct writer, one request at a time, took almost none from writeback); READ reads
     * the device in 1 MiB direct reads, so every byte meets the throttle. Needs a testbed with disks
     * ({@code --disk-rate}).
     */
    public BackgroundLoad diskHogs(List<Host> hosts, DiskHog kind, Duration duration) {
        for (Host host : hosts) {
            HostDisk disk = Disks.of(testbed.state(), host);
            String io = kind == DiskHog.WRITE
                    ? "dd if=/dev/zero of=" + disk.mountPoint() + "/hog bs=1M count=512 conv=notrunc status=none"
                    : "dd if=/dev/" + Disks.deviceName(disk) + " of=/dev/null bs=1M count=512 iflag=direct status=none";
            start(
                    host,
                    "disk-" + kind.name().toLowerCase(java.util.Locale.ROOT) + "-" + host.index(),
                    List.of("timeout", seconds(duration), "bash", "-c", "while :; do " + io + "; done"));
        }
        return this;
    }

    /** The links this load was started to saturate. */
    public Set<Link> saturatedLinks() {
        return Set.copyOf(saturated);
    }

    @Override
    public void close() {
        for (StartedProcess process : started) {
            testbed.processes().stop(process);
        }
        started.clear();
        tcpServers.clear();
    }

    private void startServer(Host host, int port, String kind) {
        start(host, "iperf-" + kind + "-server-" + host.index(), List.of("iperf3", "-s", "-p", Integer.toString(port)));
        // The clients connect only once the server listens; iperf3 always has a TCP control connection.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!Commands.inNamespace(host.namespace(), "ss", "-Hltn", "sport = :" + port)
                .contains(":" + port)) {
            if (System.nanoTime() > deadline) {
                throw new TestbedException("iperf3 server in " + host.namespace() + " did not listen within 5 s");
            }
            sleep(50);
        }
    }

    private void start(Host host, String role, List<String> command) {
        started.add(testbed.processes().start(Optional.of(host), role, command));
    }

    private static String seconds(Duration duration) {
        return Long.toString(Math.max(1, duration.toSeconds()));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted while starting background load", e);
        }
    }
}
