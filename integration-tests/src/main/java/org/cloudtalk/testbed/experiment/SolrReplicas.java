package org.cloudtalk.testbed.experiment;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.fidelity.Fidelity;
import org.cloudtalk.testbed.fidelity.FidelityMonitor;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.solr.ReplicaChoice;
import org.cloudtalk.testbed.solr.Search;
import org.cloudtalk.testbed.solr.SolrCloud;

/**
 * §5.4's replica choice with a real SolrCloud: a coordinator node in host 0 aggregates searches over a collection of
 * {@code shards} x 2 replicas on the next {@code 2 x shards} hosts, and a share of those replica hosts is busy (long
 * TCP flows in both directions of their links; see {@link #pickBusy}). A client in host 0 sends searches at each of
 * {@code rates} per second (Poisson, open loop; each returns {@code documentsPerSearch} stored documents) to the
 * coordinator under each {@link ReplicaChoice} in turn: Solr's default, {@code shards.preference}, the ARS-like C3
 * ranking and the CloudTalk plugin, each with the coordinator restarted with its factory and the load restarted, in an
 * order drawn per run (a fixed order would hand one choice whatever the shared machine does late in every run).
 * Per-search latency is the metric.
 */
public final class SolrReplicas implements Experiment {
    static final String LATENCY = "latency-ms-";
    static final String FAILED = "failed-";
    /** The share of shard requests that a busy host's replica answered. */
    static final String BUSY_READS = "busy-reads-%-";
    /** The share of shards whose leader is on a busy host. */
    static final String BUSY_LEADERS = "busy-leaders-%";

    static final String ANSWERS_USED = "cloudtalk-answers-used-%";
    /** When a choice was measured in its run: 1 for the first. */
    /** Long enough for the restarted coordinator's JIT to compile its hot paths before anything is measured. */
    private static final Duration WARM_UP = Duration.ofSeconds(15);

    private static final Duration CLIENT_START = Duration.ofSeconds(5);

    private final int shards;
    private final List<Integer> rates;
    private final int docs;
    private final int words;
    private final int documentsPerSearch;

    /**
     * 4 shards x 2 replicas on 8 hosts, 20,000 documents of 300 words (~1.3 KB of text), the top 100 of each search
     * returned with their bodies, at 10, 25 and 50 searches/s.
     */
    public SolrReplicas() {
        this(4, List.of(10, 25, 50), 20_000, 300, 100);
    }

    public SolrReplicas(int shards, List<Integer> rates, int docs, int words, int documentsPerSearch) {
        this.shards = shards;
        this.rates = List.copyOf(rates);
        this.docs = docs;
        this.words = words;
        this.documentsPerSearch = documentsPerSearch;
    }

    @Override
    public String name() {
        return "solr-replicas";
    }

    @Override
    public List<Double> defaultBusy() {
        return List.of(0.25, 0.5);
    }

    /** The latency of each replica choice at the highest rate. */
    @Override
    public List<String> chartMetrics() {
        int top = rates.get(rates.size() - 1);
        return List.of(ReplicaChoice.values()).stream()
                .map(choice -> metric(choice, top))
                .toList();
    }

    @Override
    public String chartTitle() {
        return "Solr search latency, " + rates.get(rates.size() - 1) + " searches/s";
    }

    @Override
    public String xAxisTitle() {
        return "busy replica hosts (%)";
    }

    @Override
    public String yAxisTitle() {
        return "ms per search (avg; p99 dashed)";
    }

    @Override
    public boolean chartP99() {
        return true;
    }

    static String metric(ReplicaChoice choice, int rate) {
        return LATENCY + choice.label() + "-" + rate + "qps";
    }

    @Override
    public void check(TestbedConfig config) {
        int needed = 1 + 2 * shards;
        if (config.hosts() < needed) {
            throw TestbedException.invalidValue(
                    config.hosts(), "--hosts", "solr-replicas with " + shards + " shards needs " + needed);
        }
    }

    @Override
    public RunResult run(RunContext context) {
        Testbed testbed = context.testbed();
        check(testbed.config());
        int needed = 1 + 2 * shards;
        Host aggregator = testbed.host(0);
        List<Host> replicaHosts = testbed.hosts().subList(1, needed);
        List<Measurement> rows = new ArrayList<>();
        List<Check> checks = new ArrayList<>();
        Fidelity fidelity;
        try (ServerProcess server = ServerProcess.start(
                        testbed,
                        Host.managementRootAddress(testbed.config().subnet()),
                        List.of(),
                        // The hold its figures were measured with: the paper's 300 ms, ending at once (the
                        // server's default now fades over the daemons' window; docs/server.md).
                        ServerProcess.reservations(300, 0),
                        ServerProcess.oneHopQuery(aggregator, replicaHosts));
                SolrCloud solr = SolrCloud.start(testbed, aggregator, replicaHosts)) {
            solr.createCollection(shards, 2, docs, words, context.random().nextLong());
            Map<String, List<String>> shardHosts = solr.replicaHosts();
            List<Host> busy = pickBusy(context, replicaHosts, shardHosts);
            // shards.preference=replica.leader:false reads the other replicas: whether the busy hosts hold the
            // leaders decides that baseline's fate.
            long busyLeaders = shardHosts.values().stream()
                    .filter(holders -> busy.stream().anyMatch(h -> h.address().equals(holders.get(0))))
                    .count();
            rows.add(new Measurement(
                    BUSY_LEADERS, shardHosts.size() + " shards", 100.0 * busyLeaders / shardHosts.size()));
            // The data nodes' JIT too, before the first choice is measured: it would otherwise pay for all of them.
            solr.startAggregator(ReplicaChoice.SOLR_DEFAULT, server.uri());
            solr.load("data-nodes-warm-up", rates.get(0), WARM_UP, documentsPerSearch, Map.of(), 2);
            fidelity = context.inDrawnOrder(List.of(ReplicaChoice.values()), ReplicaChoice::label, rows, choice -> {
                solr.startAggregator(choice, server.uri());
                Duration loadTime = RunContext.SETTLE
                        .plus(WARM_UP)
                        .plus(CLIENT_START.plus(context.measure()).multipliedBy(rates.size() + 1L))
                        .plusSeconds(60);
                Fidelity phase;
                try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, loadTime)) {
                    RunContext.pause(RunContext.SETTLE);
                    solr.load(
                            choice.label() + "-warm-up",
                            rates.get(0),
                            WARM_UP,
                            documentsPerSearch,
                            choice.requestParameters(),
                            1);
                    try (FidelityMonitor monitor = FidelityMonitor.start(testbed, load.saturatedLinks())) {
                        for (int rate : rates) {
                            measure(solr, choice, rate, busy, context, rows, checks);
                        }
                        phase = monitor.verdict();
                    }
                }
                if (choice == ReplicaChoice.CLOUDTALK) {
                    pluginFigures(solr, rows, checks);
                }
                return phase;
            });
        }
        return new RunResult(rows, checks, fidelity);
    }

    /**
     * The busy fraction of the replica hosts, drawn so that every shard keeps a replica on an idle host as long as
     * that is possible (up to half of them with two replicas): a shard whose every replica is busy is slow whatever
     * chooses, and would hide the choices being compared. Beyond that, the rest at random.
     */
    static List<Host> pickBusy(RunContext context, List<Host> replicaHosts, Map<String, List<String>> shardHosts) {
        int count = context.pickBusy(replicaHosts).size();
        Set<String> busy = new LinkedHashSet<>();
        // Greedy in a random order, a few times over: an uneven replica layout can trap one order.
        for (int attempt = 0; attempt < 100 && busy.size() < count; attempt++) {
            busy.clear();
            for (Host host : shuffled(replicaHosts, context)) {
                if (busy.size() < count && everyShardKeepsAnIdleReplica(busy, host.address(), shardHosts)) {
                    busy.add(host.address());
                }
            }
        }
        for (Host host : shuffled(replicaHosts, context)) {
            if (busy.size() < count) {
                busy.add(host.address());
            }
        }
        return replicaHosts.stream().filter(h -> busy.contains(h.address())).toList();
    }

    private static List<Host> shuffled(List<Host> hosts, RunContext context) {
        List<Host> order = new ArrayList<>(hosts);
        Collections.shuffle(order, context.random());
        return order;
    }

    private static boolean everyShardKeepsAnIdleReplica(
            Set<String> busy, String candidate, Map<String, List<String>> shardHosts) {
        return shardHosts.values().stream()
                .allMatch(holders -> holders.stream().anyMatch(h -> !h.equals(candidate) && !busy.contains(h)));
    }

    private void measure(
            SolrCloud solr,
            ReplicaChoice choice,
            int rate,
            List<Host> busy,
            RunContext context,
            List<Measurement> rows,
            List<Check> checks) {
        String label = choice.label() + "-" + rate + "qps";
        List<Search> searches = solr.load(
                label,
                rate,
                context.measure(),
                documentsPerSearch,
                choice.requestParameters(),
                context.random().nextLong());
        Set<String> busyAddresses = busy.stream().map(Host::address).collect(Collectors.toSet());
        long failed = 0;
        for (int i = 0; i < searches.size(); i++) {
            Search search = searches.get(i);
            if (search.ok()) {
                rows.add(new Measurement(metric(choice, rate), "search-" + i, search.latencyMs()));
            } else {
                failed++;
            }
        }
        List<String> reads = Search.shardReads(searches);
        long busyReads = reads.stream().filter(busyAddresses::contains).count();
        rows.add(new Measurement(
                BUSY_READS + label,
                reads.size() + " shard reads",
                reads.isEmpty() ? 0 : 100.0 * busyReads / reads.size()));
        rows.add(new Measurement(FAILED + label, "count", failed));
        checks.add(new Check(
                "no " + label + " search fails",
                failed == 0 && !searches.isEmpty(),
                String.format(Locale.ROOT, "%d searches, %d failed", searches.size(), failed)));
    }

    /** The plugin's counters in the coordinator's metrics: the share of searches whose replicas CloudTalk chose. */
    private static void pluginFigures(SolrCloud solr, List<Measurement> rows, List<Check> checks) {
        Map<String, Long> counters;
        try {
            counters = solr.aggregatorCounters("QUERY.httpShardHandler.cloudtalk");
        } catch (IOException e) {
            checks.add(new Check("the plugin's metrics are read", false, e.getMessage()));
            return;
        }
        long used = counters.getOrDefault("QUERY.httpShardHandler.cloudtalk.answersUsed", 0L);
        long fallbacks = counters.entrySet().stream()
                .filter(e -> e.getKey().contains(".fallbacks."))
                .mapToLong(Map.Entry::getValue)
                .sum();
        long searches = used + fallbacks;
        rows.add(new Measurement(ANSWERS_USED, searches + " searches", searches == 0 ? 0 : 100.0 * used / searches));
        checks.add(new Check(
                "CloudTalk chose the replicas of most searches",
                used > fallbacks,
                used + " answers used, fallbacks "
                        + counters.entrySet().stream()
                                .filter(e -> e.getKey().contains(".fallbacks.") && e.getValue() > 0)
                                .toList()));
    }
}
