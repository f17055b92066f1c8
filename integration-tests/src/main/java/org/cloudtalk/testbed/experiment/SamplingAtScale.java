package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.client.QueryResult;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Network;
import org.cloudtalk.testbed.proc.StatusDaemons;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * {@code sampling-300}: the §5.2 check at the paper's scale. 300 endpoints — {@value #ENDPOINTS} addresses spread
 * evenly over hosts 1..N-1, each host's addresses sharing its shaped link as VMs share a NIC — are the candidates of
 * one variable; a fraction of the hosts is busy (default 70%), so their endpoints are; the server samples
 * {@value #SAMPLED} candidates per query (§4.3) and must still pick an idle endpoint in ≥ 99% of answers. Each host's
 * extra addresses are served by a second status daemon in that host (fewer daemon processes than endpoints, as the
 * issue allows); a random pick is idle at the idle share, and a sample of 19 holds an idle endpoint with probability
 * 1 - C(busy, 19) / C(300, 19).
 */
public final class SamplingAtScale implements Experiment {
    static final int ENDPOINTS = 300;
    static final int SAMPLED = 19;
    static final String CLOUDTALK = "cloudtalk-idle-%";
    static final String RANDOM = "random-idle-%";
    static final String SAMPLE_EXPECTED = "sample-holds-idle-expected-%";
    static final double MIN_IDLE_PICKED = 0.99;
    private static final int EXTRA_DAEMON_PORT = StatusDaemons.PORT + 1;
    private static final int QUERIES = 200;
    // As in query-under-load: queries back to back would make the measured window CPU-bound by the control plane.
    private static final Duration SPACING = Duration.ofMillis(20);

    @Override
    public String name() {
        return "sampling-300";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.7);
    }

    @Override
    public List<String> chartMetrics() {
        return List.of(CLOUDTALK, RANDOM, SAMPLE_EXPECTED);
    }

    @Override
    public String chartTitle() {
        return "Answers on an idle endpoint, 19 of 300 candidates sampled";
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        Host writer = testbed.host(0);
        List<Host> hosts = testbed.hosts().subList(1, testbed.hosts().size());
        if (hosts.size() > 150) {
            throw new TestbedException("sampling-300 places endpoints in 10.S.(100+i).x: at most 151 hosts");
        }
        Map<String, Host> endpoints = endpoints(testbed, hosts);
        List<Host> busy = context.pickBusy(hosts);
        Set<Host> busyHosts = Set.copyOf(busy);
        long idleEndpoints =
                endpoints.values().stream().filter(h -> !busyHosts.contains(h)).count();
        String query =
                "A = (" + String.join(" ", endpoints.keySet()) + ")\nf1 " + writer.address() + " -> A size 64M\n";
        List<Measurement> rows = new ArrayList<>();
        double expected = 1
                - QueryUnderLoad.choose(ENDPOINTS - (int) idleEndpoints, SAMPLED)
                        / QueryUnderLoad.choose(ENDPOINTS, SAMPLED);
        rows.add(new Measurement(SAMPLE_EXPECTED, "hypergeometric", expected * 100));
        List<StartedProcess> daemons = new ArrayList<>();
        try {
            startExtraDaemons(testbed, hosts, endpoints, daemons);
            // Each extra daemon answers for all of its host's endpoints once it answers for one.
            Map<Host, String> firstOfHost = new LinkedHashMap<>();
            endpoints.forEach((address, host) -> firstOfHost.putIfAbsent(host, address));
            firstOfHost.forEach(
                    (host, address) -> testbed.daemons().awaitAnswer(host, EXTRA_DAEMON_PORT, address, 30_000));
            List<String> locator = endpoints.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().managementAddress() + ":" + EXTRA_DAEMON_PORT)
                    .toList();
            try (BackgroundLoad load = new BackgroundLoad(testbed)
                            .busy(
                                    busy,
                                    RunContext.SETTLE.plus(context.measure()).plusSeconds(60));
                    ServerProcess server =
                            ServerProcess.start(testbed, locator, List.of("sampling.size=" + SAMPLED), query)) {
                RunContext.pause(RunContext.SETTLE);
                int idlePicked = 0;
                try (FidelityMonitor monitor = FidelityMonitor.start(testbed, load.saturatedLinks())) {
                    List<String> all = new ArrayList<>(endpoints.keySet());
                    for (int q = 0; q < QUERIES; q++) {
                        QueryResult answer = server.ask(query);
                        Host chosen = endpoints.get(answer.bindings().get("A"));
                        boolean idle = chosen != null && !busyHosts.contains(chosen);
                        idlePicked += idle ? 1 : 0;
                        rows.add(new Measurement(CLOUDTALK, "q" + q, idle ? 100 : 0));
                        Host random = endpoints.get(all.get(context.random().nextInt(all.size())));
                        rows.add(new Measurement(RANDOM, "q" + q, busyHosts.contains(random) ? 0 : 100));
                        RunContext.pause(SPACING);
                    }
                    double share = idlePicked / (double) QUERIES;
                    Check check = new Check(
                            "an idle endpoint in >= 99% of answers",
                            share >= MIN_IDLE_PICKED,
                            String.format(
                                    "%.1f%% (%d of %d endpoints idle; a random pick: %.1f%%)",
                                    share * 100, idleEndpoints, ENDPOINTS, idleEndpoints * 100.0 / ENDPOINTS));
                    return new RunResult(rows, List.of(check), monitor.verdict());
                }
            }
        } finally {
            daemons.forEach(daemon -> testbed.processes().stop(daemon));
        }
    }

    /**
     * {@value #ENDPOINTS} endpoint addresses, host i's in {@code 10.S.(100+i).1..}, each added to the host's data link
     * and routed by the core to it (idempotent: a second run finds them there). The namespaces' removal at
     * {@code down} takes them away.
     */
    private static Map<String, Host> endpoints(Testbed testbed, List<Host> hosts) {
        Map<String, Host> endpoints = new LinkedHashMap<>();
        int subnet = testbed.config().subnet();
        String core = Network.coreNamespace(testbed.config());
        for (int e = 0; e < ENDPOINTS; e++) {
            Host host = hosts.get(e % hosts.size());
            String address = "10." + subnet + "." + (100 + host.index()) + "." + (1 + e / hosts.size());
            Commands.run("ip", "-n", host.namespace(), "addr", "replace", address + "/32", "dev", host.link());
            Commands.run("ip", "-n", core, "route", "replace", address + "/32", "dev", host.coreLink());
            endpoints.put(address, host);
        }
        return endpoints;
    }

    /** A second daemon in each host, on its own port, for the host's extra endpoints (same link, same capacity). */
    private static void startExtraDaemons(
            Testbed testbed, List<Host> hosts, Map<String, Host> endpoints, List<StartedProcess> started) {
        for (Host host : hosts) {
            List<String> mine = endpoints.entrySet().stream()
                    .filter(e -> e.getValue().equals(host))
                    .map(Map.Entry::getKey)
                    .toList();
            try {
                started.add(StatusDaemons.startDaemon(
                        testbed.state(),
                        testbed.processes(),
                        host,
                        "daemon-" + host.index() + "-endpoints",
                        EXTRA_DAEMON_PORT,
                        mine));
            } catch (IOException e) {
                throw new TestbedException("cannot write daemon configuration: " + e.getMessage(), e);
            }
        }
    }
}
