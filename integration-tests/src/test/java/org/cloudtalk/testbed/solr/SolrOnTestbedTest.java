package org.cloudtalk.testbed.solr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.testbed.Leftovers;
import org.cloudtalk.testbed.Root;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.experiment.RunContext;
import org.cloudtalk.testbed.experiment.ServerProcess;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SolrCloud on a 5-host testbed: a coordinator in host 0 and a 2-shard x 2-replica collection on hosts 1-4,
 * with one replica host of each shard busy (TCP flows filling its link both ways). Solr's own {@code shards.info} says
 * which replica answered each shard request: through the CloudTalk plugin (nearly) every one is the idle replica;
 * Solr's default shuffle reads the busy ones about half the time. No search fails, and afterwards nothing of the
 * testbed or of Solr is left.
 */
class SolrOnTestbedTest {
    private static final int RATE = 10;
    private static final int ROWS = 10;
    private static final Duration SEARCHING = Duration.ofSeconds(6);

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void cloudTalkReadsTheIdleReplicasWhereSolrsDefaultDoesNot(@TempDir Path temp) throws Exception {
        Root.assumeNamespaces();
        // A prefix and subnets of its own (10.160-187), apart from the other tests' and a developer's testbed.
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("ctso" + id, 5, 400, 0, 160 + 2 * (id % 14), temp.resolve("run"), 0);
        Path solrDirectory = config.runDir().resolve("solr");
        List<StartedProcess> started;
        try (Testbed testbed = Testbed.up(config)) {
            Host aggregator = testbed.host(0);
            List<Host> replicaHosts = testbed.hosts().subList(1, 5);
            try (ServerProcess server = ServerProcess.start(
                            testbed,
                            Host.managementRootAddress(config.subnet()),
                            List.of(),
                            List.of(),
                            ServerProcess.oneHopQuery(aggregator, replicaHosts));
                    SolrCloud solr = SolrCloud.start(testbed, aggregator, replicaHosts)) {
                solr.createCollection(2, 2, 2000, 100, 7);
                Map<String, List<String>> shards = solr.replicaHosts();
                // One replica of each shard busy; the other idle (Solr spreads four replicas over four nodes).
                Set<String> busyAddresses = new LinkedHashSet<>();
                shards.values().forEach(holders -> busyAddresses.add(holders.get(0)));
                List<Host> busy = replicaHosts.stream()
                        .filter(h -> busyAddresses.contains(h.address()))
                        .toList();
                assertThat(busy).as("replicas %s", shards).hasSize(2);
                List<Search> cloudTalk;
                List<Search> stock;
                Map<String, Long> counters;
                try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, Duration.ofMinutes(4))) {
                    // The status daemons' smoothing window, so that the first answers already see the load.
                    RunContext.pause(RunContext.SETTLE);
                    solr.startAggregator(ReplicaChoice.CLOUDTALK, server.uri());
                    // The server's and the plugin's first queries (class loading, JIT) miss the 25 ms deadline.
                    solr.load("cloudtalk-warm-up", RATE, Duration.ofSeconds(3), ROWS, Map.of(), 2);
                    cloudTalk = solr.load("cloudtalk", RATE, SEARCHING, ROWS, Map.of(), 1);
                    counters = solr.aggregatorCounters("QUERY.httpShardHandler.cloudtalk");
                    solr.startAggregator(ReplicaChoice.SOLR_DEFAULT, server.uri());
                    stock = solr.load("stock", RATE, SEARCHING, ROWS, Map.of(), 1);
                }
                String report = String.format(
                        "busy %s, replicas %s; busy reads: cloudtalk %.0f%%, stock %.0f%%; plugin %s",
                        busyAddresses,
                        shards,
                        100 * busyShare(cloudTalk, busyAddresses),
                        100 * busyShare(stock, busyAddresses),
                        counters);
                System.out.println(report);
                for (List<Search> searches : List.of(cloudTalk, stock)) {
                    assertThat(searches).as(report).hasSizeGreaterThan(20).allSatisfy(search -> {
                        assertThat(search.ok()).isTrue();
                        assertThat(search.replicaHosts()).hasSize(2);
                    });
                }
                assertThat(counters.get("QUERY.httpShardHandler.cloudtalk.answersUsed"))
                        .as(report)
                        .isGreaterThanOrEqualTo(cloudTalk.size() / 2);
                // An answer may predate the daemons' view of the load for the first ~200 ms (one cache TTL).
                assertThat(busyShare(cloudTalk, busyAddresses)).as(report).isLessThanOrEqualTo(0.1);
                assertThat(busyShare(stock, busyAddresses)).as(report).isGreaterThanOrEqualTo(0.25);
            }
            assertThat(solrDirectory).doesNotExist();
            started = new ArrayList<>(testbed.startedProcesses());
        }
        assertThat(started).extracting(StartedProcess::role).noneMatch(role -> role.startsWith("solr"));
        assertThat(Leftovers.namespaces(config.prefix())).isEmpty();
        assertThat(Leftovers.rootLinks(config.prefix())).isEmpty();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
                .isEmpty();
    }

    private static double busyShare(List<Search> searches, Set<String> busy) {
        List<String> reads = Search.shardReads(searches);
        return reads.isEmpty() ? 0 : reads.stream().filter(busy::contains).count() / (double) reads.size();
    }
}
