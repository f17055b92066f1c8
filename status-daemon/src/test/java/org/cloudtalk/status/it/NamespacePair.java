package org.cloudtalk.status.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Two emulated hosts: network namespaces joined by a veth pair, each end shaped by {@code tc tbf} to a known rate,
 * and an unshaped management veth from the test's namespace to host A.
 * Everything it creates, including the processes it starts inside the namespaces, is removed on close, and by a
 * shutdown hook if the JVM dies first.
 */
final class NamespacePair implements AutoCloseable {
    final String hostA;
    final String hostB;
    final String linkA;
    final String linkB;
    final String addressA;
    final String addressB;
    /** A's address on an unshaped management link from the test's own namespace, for probing without noise. */
    final String managementA;

    private final String managementLink;
    private final String managementPeer;
    private final String managementHost;
    private final List<Process> processes = new ArrayList<>();
    private final Thread cleanup = new Thread(this::removeEverything, "namespace-cleanup");

    private NamespacePair() {
        String id = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        int subnet = ThreadLocalRandom.current().nextInt(1, 250);
        hostA = "ct" + id + "a";
        hostB = "ct" + id + "b";
        linkA = "ct" + id + "va";
        linkB = "ct" + id + "vb";
        addressA = "10.213." + subnet + ".1";
        addressB = "10.213." + subnet + ".2";
        managementLink = "ct" + id + "m0";
        managementPeer = "ct" + id + "m1";
        managementHost = "10.214." + subnet + ".1";
        managementA = "10.214." + subnet + ".2";
    }

    /** Whether this machine lets the test build namespaces: root and iproute2. */
    static boolean available() {
        boolean hasIp = Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"));
        return hasIp && "root".equals(System.getProperty("user.name"));
    }

    /** Creates the pair with A→B shaped to {@code aToBMbit} and B→A to {@code bToAMbit}. */
    static NamespacePair create(int aToBMbit, int bToAMbit) throws IOException, InterruptedException {
        NamespacePair pair = new NamespacePair();
        Runtime.getRuntime().addShutdownHook(pair.cleanup);
        try {
            pair.run("ip", "netns", "add", pair.hostA);
            pair.run("ip", "netns", "add", pair.hostB);
            pair.run("ip", "link", "add", pair.linkA, "type", "veth", "peer", "name", pair.linkB);
            pair.run("ip", "link", "set", pair.linkA, "netns", pair.hostA);
            pair.run("ip", "link", "set", pair.linkB, "netns", pair.hostB);
            pair.run("ip", "-n", pair.hostA, "addr", "add", pair.addressA + "/30", "dev", pair.linkA);
            pair.run("ip", "-n", pair.hostB, "addr", "add", pair.addressB + "/30", "dev", pair.linkB);
            for (String[] host : new String[][] {{pair.hostA, pair.linkA}, {pair.hostB, pair.linkB}}) {
                pair.run("ip", "-n", host[0], "link", "set", "lo", "up");
                pair.run("ip", "-n", host[0], "link", "set", host[1], "up");
            }
            pair.run("ip", "link", "add", pair.managementLink, "type", "veth", "peer", "name", pair.managementPeer);
            pair.run("ip", "link", "set", pair.managementPeer, "netns", pair.hostA);
            pair.run("ip", "addr", "add", pair.managementHost + "/30", "dev", pair.managementLink);
            pair.run("ip", "-n", pair.hostA, "addr", "add", pair.managementA + "/30", "dev", pair.managementPeer);
            pair.run("ip", "link", "set", pair.managementLink, "up");
            pair.run("ip", "-n", pair.hostA, "link", "set", pair.managementPeer, "up");
            pair.shape(pair.hostA, pair.linkA, aToBMbit);
            pair.shape(pair.hostB, pair.linkB, bToAMbit);
            return pair;
        } catch (IOException | InterruptedException | RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    private void shape(String host, String link, int mbit) throws IOException, InterruptedException {
        run(
                "tc",
                "-n",
                host,
                "qdisc",
                "add",
                "dev",
                link,
                "root",
                "tbf",
                "rate",
                mbit + "mbit",
                "burst",
                "64kb",
                "latency",
                "100ms");
    }

    /** Starts {@code java -cp <test classpath> mainClass args} inside a namespace, its output going to {@code log}. */
    Process startJava(String host, Path log, String heap, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "ip",
                "netns",
                "exec",
                host,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(process);
        return process;
    }

    void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    @Override
    public void close() {
        removeEverything();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    private synchronized void removeEverything() {
        for (Process process : processes) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (Process process : processes) {
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        for (String host : List.of(hostA, hostB)) {
            try {
                new ProcessBuilder("ip", "netns", "del", host)
                        .redirectErrorStream(true)
                        .start()
                        .waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                // nothing left to remove
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
