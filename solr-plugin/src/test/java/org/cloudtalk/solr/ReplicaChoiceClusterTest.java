package org.cloudtalk.solr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.embedded.JettySolrRunner;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof: a 4-node SolrCloud (a coordinator node aggregates and holds no replica; a 2 x 2 collection on the three
 * data nodes, so one host H holds a replica of both shards) and a real CloudTalk server on loopback fed a status file. Solr's own evidence
 * ({@code shards.info}'s {@code shardAddress}) says which replica answered. {@code shards.preference} always names H,
 * so with CloudTalk down Solr's order reads H, and with CloudTalk up its choice must win.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaChoiceClusterTest {
    private static final String COLLECTION = "docs";
    private static final int DOCS = 20;
    private static final int QUERIES = 20;

    @TempDir
    static Path temp;

    static CloudTalkServer cloudtalk;
    static MiniSolrCloudCluster cluster;
    static Path statusFile;
    static JettySolrRunner aggregator;
    static SolrClient aggregatorClient;
    static Map<String, String> ipByNode = new HashMap<>();
    /** Per shard, its replicas' core URLs by node. */
    static Map<String, Map<String, String>> coreUrls = new HashMap<>();

    static String sharedNode;

    @BeforeAll
    static void start() throws Exception {
        statusFile = temp.resolve("status.json");
        writeStatus(Set.of());
        cloudtalk = CloudTalkServer.start(ServerConfig.from(
                Map.of("port", "0", "status.file", statusFile.toString(), "reservation.hold.ms", "0")));
        Path hostMap = temp.resolve("hosts.properties");
        String plugin = "<shardHandlerFactory name=\"shardHandlerFactory\" "
                + "class=\"org.cloudtalk.solr.CloudTalkShardHandlerFactory\">\n"
                + "    <str name=\"cloudtalk.server\">http://127.0.0.1:"
                + cloudtalk.localAddress().getPort() + "</str>\n"
                // A loaded 2-core test machine (the first query loads the server's parser): wait long enough that the
                // proof
                // never depends on a fallback.
                + "    <int name=\"cloudtalk.deadline.ms\">3000</int>\n"
                + "    <int name=\"cloudtalk.query.timeout.ms\">5000</int>\n"
                + "    <int name=\"cloudtalk.cache.ttl.ms\">100</int>\n"
                + "    <str name=\"cloudtalk.host.map.file\">" + hostMap + "</str>\n";
        String solrXml = MiniSolrCloudCluster.DEFAULT_CLOUD_SOLR_XML
                .replace(
                        "<shardHandlerFactory name=\"shardHandlerFactory\" class=\"HttpShardHandlerFactory\">\n",
                        plugin)
                // Metrics on: the proof reads the plugin's counters from Solr's registry.
                .replace("${metricsEnabled:false}", "true");
        assertThat(solrXml).contains("CloudTalkShardHandlerFactory").contains("<metrics enabled=\"true\">");
        cluster = new MiniSolrCloudCluster.Builder(3, temp.resolve("solr"))
                .withSolrXml(solrXml)
                .addConfig(
                        "minimal",
                        Path.of(ReplicaChoiceClusterTest.class
                                .getResource("/configsets/minimal/conf")
                                .toURI()))
                .build();
        String holders = cluster.getJettySolrRunners().stream()
                .map(JettySolrRunner::getNodeName)
                .collect(Collectors.joining(","));
        // The aggregator is a coordinator node (as the paper's aggregators): it holds no data and gathers the
        // results itself. A data-less node without the role would forward the whole request to a replica's node.
        System.setProperty("solr.node.roles", "coordinator:on");
        try {
            aggregator = cluster.startJettySolrRunner();
        } finally {
            System.clearProperty("solr.node.roles");
        }
        cluster.waitForAllNodes(60);
        // Every node is 127.0.0.1 here: the map gives each its own endpoint IP, as CloudTalk knows it.
        List<JettySolrRunner> nodes = cluster.getJettySolrRunners();
        StringBuilder map = new StringBuilder();
        for (int i = 0; i < nodes.size(); i++) {
            String ip = "10.0.0." + (i + 1);
            ipByNode.put(nodes.get(i).getNodeName(), ip);
            map.append(nodes.get(i).getNodeName().replace(":", "\\:"))
                    .append('=')
                    .append(ip)
                    .append('\n');
        }
        Path partial = temp.resolve("hosts.properties.tmp");
        Files.writeString(partial, map);
        Files.move(partial, hostMap, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

        CollectionAdminRequest.createCollection(COLLECTION, "minimal", 2, 2)
                .setCreateNodeSet(holders)
                .process(cluster.getSolrClient());
        cluster.waitForActiveCollection(COLLECTION, 60, TimeUnit.SECONDS, 2, 4);
        List<SolrInputDocument> docs = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            SolrInputDocument doc = new SolrInputDocument();
            doc.addField("id", "doc-" + i);
            doc.addField("title", "title " + i);
            docs.add(doc);
        }
        cluster.getSolrClient().add(COLLECTION, docs);
        cluster.getSolrClient().commit(COLLECTION);

        DocCollection collection = cluster.getZkStateReader().getClusterState().getCollection(COLLECTION);
        Map<String, Integer> shardsPerNode = new HashMap<>();
        for (Slice slice : collection.getSlices()) {
            Map<String, String> urls = new HashMap<>();
            for (Replica replica : slice.getReplicas()) {
                urls.put(replica.getNodeName(), replica.getCoreUrl());
                shardsPerNode.merge(replica.getNodeName(), 1, Integer::sum);
            }
            assertThat(urls).as("one replica per node in %s", slice.getName()).hasSize(2);
            coreUrls.put(slice.getName(), urls);
        }
        // 4 replicas on 3 nodes: some node holds a replica of each shard.
        sharedNode = shardsPerNode.entrySet().stream()
                .filter(entry -> entry.getValue() == 2)
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
        aggregatorClient = new Http2SolrClient.Builder(aggregator.getBaseUrl().toString()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        shutDown();
    }

    @Test
    @Order(1)
    void readsTheReplicasCloudTalkPrefersOverShardsPreference() throws Exception {
        // H is busy: CloudTalk prefers each shard's other replica, although shards.preference names H.
        makeBusy(Set.of(sharedNode));
        long used = metric("answersUsed");
        Map<String, Set<String>> answered = queryAll();
        assertThat(answered).as(metrics()).isEqualTo(expected(node -> !node.equals(sharedNode)));
        assertThat(metric("answersUsed") - used).isEqualTo(QUERIES);
        assertThat(metric("queries")).isPositive();
        assertThat(metric("cacheHits")).isPositive();
    }

    @Test
    @Order(2)
    void followsTheStatusWhenItChanges() throws Exception {
        // Now every host but H is busy: both shards move to H.
        Set<String> others = new HashSet<>(ipByNode.keySet());
        others.remove(sharedNode);
        others.remove(aggregator.getNodeName());
        makeBusy(others);
        assertThat(queryAll()).isEqualTo(expected(node -> node.equals(sharedNode)));
    }

    @Test
    @Order(3)
    void withCloudTalkDownQueriesSucceedInSolrsOrderAndTheFallbackIsCounted() throws Exception {
        makeBusy(Set.of(sharedNode));
        cloudtalk.close();
        refreshTheAnswer();
        long fallbacks = metric("fallbacks.unavailable");
        // Solr's own order: shards.preference puts H first for both shards.
        assertThat(queryAll()).isEqualTo(expected(node -> node.equals(sharedNode)));
        assertThat(metric("fallbacks.unavailable") - fallbacks).isEqualTo(QUERIES);
    }

    @Test
    @Order(4)
    void leavesNoThreadBehind() throws Exception {
        shutDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<String> left;
        do {
            // The JDK HTTP client's selector thread ends once its client is unreachable.
            System.gc();
            Thread.sleep(200);
            left = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive)
                    .map(Thread::getName)
                    .filter(name -> name.startsWith("cloudtalk-solr") || name.startsWith("HttpClient-"))
                    .collect(Collectors.toSet());
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        assertThat(left).isEmpty();
    }

    /** Per shard, the node whose replica answered each of {@link #QUERIES} distributed queries. */
    private static Map<String, Set<String>> queryAll() throws Exception {
        Map<String, Set<String>> answered = new HashMap<>();
        String preference = "replica.location:"
                + cluster.getJettySolrRunners().stream()
                        .filter(jetty -> jetty.getNodeName().equals(sharedNode))
                        .findFirst()
                        .orElseThrow()
                        .getBaseUrl();
        for (int i = 0; i < QUERIES; i++) {
            ModifiableSolrParams params = new ModifiableSolrParams();
            params.set("q", "*:*");
            params.set("shards.info", true);
            params.set("shards.preference", preference);
            QueryResponse response = new QueryRequest(params).process(aggregatorClient, COLLECTION);
            assertThat(response.getResults().getNumFound()).isEqualTo(DOCS);
            NamedList<?> info = (NamedList<?>) response.getResponse().get("shards.info");
            assertThat(info.size()).isEqualTo(2);
            for (int s = 0; s < info.size(); s++) {
                String address = (String) ((NamedList<?>) info.getVal(s)).get("shardAddress");
                boolean known = false;
                for (Map.Entry<String, Map<String, String>> shard : coreUrls.entrySet()) {
                    for (Map.Entry<String, String> replica : shard.getValue().entrySet()) {
                        if ((address + "/").equals(replica.getValue())) {
                            answered.computeIfAbsent(shard.getKey(), k -> new HashSet<>())
                                    .add(replica.getKey());
                            known = true;
                        }
                    }
                }
                assertThat(known).as("%s is a replica of %s", address, coreUrls).isTrue();
            }
        }
        return answered;
    }

    private static Map<String, Set<String>> expected(java.util.function.Predicate<String> preferred) {
        Map<String, Set<String>> expected = new HashMap<>();
        coreUrls.forEach((shard, urls) ->
                expected.put(shard, urls.keySet().stream().filter(preferred).collect(Collectors.toSet())));
        expected.values().forEach(nodes -> assertThat(nodes).hasSize(1));
        return expected;
    }

    private static void makeBusy(Set<String> busyNodes) throws Exception {
        writeStatus(busyNodes.stream().map(ipByNode::get).collect(Collectors.toSet()));
        refreshTheAnswer();
    }

    /**
     * Lets the plugin's cached answer expire and be refreshed: the first request after the TTL still uses the answer
     * it had while the refresh runs, so one request starts the refresh and the test waits for the query to end.
     */
    private static void refreshTheAnswer() throws Exception {
        Thread.sleep(300); // past the plugin's cache TTL
        long queries = metric("queries");
        ModifiableSolrParams params = new ModifiableSolrParams();
        params.set("q", "*:*");
        new QueryRequest(params).process(aggregatorClient, COLLECTION);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (metric("queries") == queries && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(metric("queries")).as("a refresh of the plugin's answer").isGreaterThan(queries);
        // The query is counted just before its answer is published.
        Thread.sleep(20);
    }

    /** Four hosts with 1 Gbit/s NICs; the busy ones send at 950 Mbit/s. */
    private static void writeStatus(Set<String> busyIps) throws Exception {
        StringBuilder json = new StringBuilder("{\"hosts\": {");
        for (int i = 1; i <= 4; i++) {
            String ip = "10.0.0." + i;
            json.append(i > 1 ? "," : "")
                    .append('"')
                    .append(ip)
                    .append("\": {\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9, ")
                    .append("\"nicTxUseBitsPerSecond\": ")
                    .append(busyIps.contains(ip) ? "9.5e8" : "0")
                    .append(", \"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}");
        }
        Files.writeString(statusFile, json.append("}}"));
        // The server re-reads the file when its modification time changes: make sure it does.
        Files.setLastModifiedTime(statusFile, FileTime.from(Instant.now().plusSeconds(busyIps.size() + 1L)));
    }

    private static long metric(String name) {
        var manager = aggregator.getCoreContainer().getMetricManager();
        var registry = manager.registry("solr.node");
        return registry.getMetrics().entrySet().stream()
                .filter(entry -> entry.getKey().endsWith("cloudtalk." + name))
                .mapToLong(entry ->
                        entry.getValue() instanceof com.codahale.metrics.Counting counting ? counting.getCount() : 0)
                .sum();
    }

    /** The plugin's metrics on the aggregator, for failure messages. */
    private static String metrics() {
        return aggregator.getCoreContainer().getMetricManager().registry("solr.node").getMetrics().entrySet().stream()
                .filter(entry -> entry.getKey().contains("cloudtalk."))
                .map(entry -> entry.getKey() + "="
                        + (entry.getValue() instanceof com.codahale.metrics.Counting counting
                                ? counting.getCount()
                                : 0))
                .collect(Collectors.joining(", "));
    }

    private static void shutDown() throws Exception {
        if (aggregatorClient != null) {
            aggregatorClient.close();
            aggregatorClient = null;
        }
        if (cluster != null) {
            cluster.shutdown();
            cluster = null;
            aggregator = null;
        }
        if (cloudtalk != null) {
            cloudtalk.close();
            cloudtalk = null;
        }
    }
}
