package org.cloudtalk.testbed.solr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.Directories;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.Undo;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Ports;
import org.cloudtalk.testbed.proc.Readiness;
import org.cloudtalk.testbed.state.StartedProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real SolrCloud (Solr 9.10.1) on the testbed: ZooKeeper in the root namespace (the control plane, reached over the
 * unshaped management links), a Solr node in each data host, and one aggregating node — a coordinator, holding no
 * data — whose shard handler factory is the {@link ReplicaChoice} under test. Every node is named by its host's testbed
 * address, so each shard response crosses the replica host's shaped access link; the testbed reads Solr's APIs over
 * the management addresses. Every process and the cluster's directory are recorded in the testbed's state, so
 * {@link #close} — or {@code testbed down} after a crash — stops and removes exactly them.
 *
 * <p>Concurrency: one thread drives a cluster.
 */
public final class SolrCloud implements AutoCloseable {
    public static final int SOLR_PORT = 8983;
    public static final String COLLECTION = "docs";
    static final String NODE_HEAP = "384m";
    static final String CLIENT_HEAP = "256m";
    private static final String NODE_MAIN = "org.cloudtalk.solr.testbed.SolrNodeMain";
    private static final String LOAD_MAIN = "org.cloudtalk.solr.testbed.SolrLoadMain";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final String CLUSTER_STATUS = "/solr/admin/collections?action=CLUSTERSTATUS&wt=json";
    private static final Logger LOG = LoggerFactory.getLogger(SolrCloud.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Testbed testbed;
    private final Host aggregatorHost;
    private final List<Host> dataHosts;
    private final SolrClasspath classpath;
    private final Path directory;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<StartedProcess> dataNodes = new ArrayList<>();
    private StartedProcess zooKeeper;
    private StartedProcess aggregator;
    private String zooKeeperAddress;

    private SolrCloud(Testbed testbed, Host aggregatorHost, List<Host> dataHosts, SolrClasspath classpath) {
        this.testbed = testbed;
        this.aggregatorHost = aggregatorHost;
        this.dataHosts = List.copyOf(dataHosts);
        this.classpath = classpath;
        this.directory = testbed.runDir().resolve("solr");
    }

    /**
     * Starts ZooKeeper and a Solr node in each of {@code dataHosts} and waits until all are live; on failure removes
     * what it started and throws with the failing process's log. {@link #startAggregator} starts the aggregating node.
     */
    public static SolrCloud start(Testbed testbed, Host aggregatorHost, List<Host> dataHosts) {
        if (dataHosts.size() < 2 || dataHosts.contains(aggregatorHost)) {
            throw new TestbedException("a SolrCloud needs at least 2 data hosts other than the aggregator's");
        }
        SolrCloud cloud = new SolrCloud(testbed, aggregatorHost, dataHosts, SolrClasspath.ofThisBuild());
        if (Files.exists(cloud.directory)) {
            throw new TestbedException("a SolrCloud is already recorded in " + cloud.directory
                    + ": close it (or run `testbed down`) first");
        }
        Undo.onFailure(
                () -> {
                    long start = System.nanoTime();
                    testbed.state().addDirectory(cloud.directory);
                    cloud.startZooKeeper();
                    for (Host host : dataHosts) {
                        cloud.dataNodes.add(
                                cloud.startNode(host, "solr-" + host.index(), ReplicaChoice.SOLR_DEFAULT, null));
                    }
                    cloud.awaitLive(dataHosts, cloud.dataNodes);
                    LOG.info(
                            "SolrCloud up in {} s: {} data nodes",
                            String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9),
                            dataHosts.size());
                },
                cloud::close);
        return cloud;
    }

    /**
     * Creates the collection ({@code shards} x {@code replicas} on the data nodes) and indexes {@code docs} documents
     * of {@code words} words each, from the aggregator's host.
     */
    public void createCollection(int shards, int replicas, int docs, int words, long seed) {
        String nodes = dataHosts.stream().map(SolrCloud::nodeName).collect(Collectors.joining(","));
        StartedProcess setup = startClient(
                "solr-setup",
                List.of(
                        "setup",
                        "--zk",
                        zooKeeperAddress,
                        "--collection",
                        COLLECTION,
                        "--shards",
                        Integer.toString(shards),
                        "--replicas",
                        Integer.toString(replicas),
                        "--nodes",
                        nodes,
                        "--docs",
                        Integer.toString(docs),
                        "--words",
                        Integer.toString(words),
                        "--seed",
                        Long.toString(seed)));
        testbed.processes().awaitExit(setup, "creating the collection", Duration.ofMinutes(10));
        if (!logOf(setup).contains("indexed " + docs + " documents")) {
            throw new TestbedException("creating the collection failed: " + setup.logTail());
        }
    }

    /**
     * (Re)starts the aggregating node with {@code choice}'s shard handler factory and waits until it is live;
     * {@code cloudTalkServer} is the plugin's server (used by {@link ReplicaChoice#CLOUDTALK} only).
     */
    public void startAggregator(ReplicaChoice choice, URI cloudTalkServer) {
        stopAggregator();
        aggregator = startNode(aggregatorHost, "solr-aggregator-" + choice.label(), choice, cloudTalkServer);
        awaitLive(List.of(aggregatorHost), List.of(aggregator));
        awaitSearchable();
    }

    /**
     * Waits until the aggregator answers a search of the collection: a coordinator that just joined fails its first
     * requests while it sets up its local view of the collection (seen: two failed searches right after a restart).
     */
    private void awaitSearchable() {
        Readiness.await(testbed, "the aggregator", List.of(aggregator), READY_TIMEOUT, "a search", () -> {
            get(aggregatorHost, "/solr/" + COLLECTION + "/select?q=*:*&rows=0&wt=json");
            return Optional.empty();
        });
    }

    /**
     * Sends searches for {@code duration} at {@code rate} per second (Poisson) to the aggregator from a client in its
     * host, each returning {@code rows} documents and sending {@code parameters}, and returns them.
     */
    public List<Search> load(
            String label, double rate, Duration duration, int rows, Map<String, String> parameters, long seed) {
        Path out = directory.resolve("load").resolve(label + ".csv");
        List<String> args = new ArrayList<>(List.of(
                "load",
                "--url",
                "http://" + aggregatorHost.address() + ":" + SOLR_PORT + "/solr",
                "--collection",
                COLLECTION,
                "--rate",
                Double.toString(rate),
                "--rows",
                Integer.toString(rows),
                "--seconds",
                Double.toString(duration.toMillis() / 1000.0),
                "--seed",
                Long.toString(seed),
                "--out",
                out.toString()));
        parameters.forEach((name, value) -> args.addAll(List.of("--param", name + "=" + value)));
        StartedProcess client = startClient("solr-load-" + label, args);
        testbed.processes().awaitExit(client, "the load client " + label, duration.plusMinutes(3));
        List<String> lines;
        try {
            lines = Files.readAllLines(out);
        } catch (IOException e) {
            throw new TestbedException(
                    "the load client wrote no results (" + e.getMessage() + "): " + client.logTail());
        }
        try {
            return lines.stream().skip(1).map(Search::parse).toList();
        } catch (RuntimeException e) {
            throw new TestbedException("cannot read " + out + " (" + e + "): " + client.logTail(), e);
        }
    }

    /** Per shard of the collection, the testbed addresses of the hosts holding its replicas, its leader's first. */
    public Map<String, List<String>> replicaHosts() {
        JsonNode status;
        try {
            status = get(dataHosts.get(0), CLUSTER_STATUS);
        } catch (IOException e) {
            throw new TestbedException("cannot read the collection's replicas: " + e.getMessage(), e);
        }
        JsonNode shards =
                status.path("cluster").path("collections").path(COLLECTION).path("shards");
        Map<String, List<String>> hosts = new TreeMap<>();
        shards.fields().forEachRemaining(shard -> {
            List<String> holders = new ArrayList<>();
            shard.getValue().path("replicas").forEach(replica -> {
                String host = replica.path("node_name").asText().split(":")[0];
                if (replica.path("leader").asBoolean(false)) {
                    holders.add(0, host);
                } else {
                    holders.add(host);
                }
            });
            hosts.put(shard.getKey(), List.copyOf(holders));
        });
        if (hosts.isEmpty()) {
            throw new TestbedException("the collection " + COLLECTION + " has no shards in the cluster's status");
        }
        return hosts;
    }

    /** The aggregating node's counters (Solr's node registry) whose names start with {@code prefix}. */
    public Map<String, Long> aggregatorCounters(String prefix) throws IOException {
        JsonNode metrics = get(aggregatorHost, "/solr/admin/metrics?group=node&wt=json&prefix=" + prefix)
                .path("metrics")
                .path("solr.node");
        Map<String, Long> counters = new LinkedHashMap<>();
        metrics.fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            counters.put(field.getKey(), value.has("count") ? value.get("count").asLong() : value.asLong());
        });
        return counters;
    }

    /** The node name Solr gives the node in {@code host}. */
    public static String nodeName(Host host) {
        return host.address() + ":" + SOLR_PORT + "_solr";
    }

    private void startZooKeeper() {
        String bind = Host.managementRootAddress(testbed.config().subnet());
        int port = Ports.free(bind);
        zooKeeperAddress = bind + ":" + port;
        zooKeeper = testbed.processes()
                .startJava(
                        Optional.empty(),
                        "solr-zookeeper",
                        "128m",
                        classpath.classpath(),
                        NODE_MAIN,
                        List.of(),
                        List.of(
                                "zookeeper",
                                "--bind",
                                bind,
                                "--port",
                                Integer.toString(port),
                                "--dir",
                                directory.resolve("zk").toString()));
        Readiness.await(testbed, "ZooKeeper", List.of(zooKeeper), Duration.ofSeconds(60), "a connection", () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(bind, port), 1000);
                return Optional.empty();
            }
        });
    }

    private StartedProcess startNode(Host host, String role, ReplicaChoice choice, URI cloudTalkServer) {
        Path home = directory.resolve(role);
        try {
            Files.createDirectories(home);
            Files.writeString(home.resolve("solr.xml"), solrXml(choice, cloudTalkServer));
        } catch (IOException e) {
            throw new TestbedException("cannot write " + home.resolve("solr.xml") + ": " + e.getMessage(), e);
        }
        List<String> options = new ArrayList<>(List.of(
                // A server under sustained load: the full JIT (the testbed's JVMs default to C1 only).
                "-XX:TieredStopAtLevel=4",
                "-Dsolr.log.dir=" + testbed.runDir().resolve("logs"),
                "-Dlog4j2.level=WARN"));
        if (host.equals(aggregatorHost)) {
            // A node that holds no data and gathers the shards' answers itself (the paper's aggregator).
            options.add("-Dsolr.node.roles=coordinator:on");
        }
        return testbed.processes()
                .startJava(
                        Optional.of(host),
                        role,
                        NODE_HEAP,
                        classpath.classpath(),
                        NODE_MAIN,
                        options,
                        List.of(
                                "node",
                                "--home",
                                home.toString(),
                                "--host",
                                host.address(),
                                "--listen",
                                host.address() + "," + host.managementAddress(),
                                "--port",
                                Integer.toString(SOLR_PORT),
                                "--zk",
                                zooKeeperAddress));
    }

    private static String solrXml(ReplicaChoice choice, URI cloudTalkServer) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <solr>
                  <metrics enabled="true"/>
                  <solrcloud>
                    <str name="host">${host:}</str>
                    <int name="hostPort">${hostPort:8983}</int>
                    <str name="hostContext">solr</str>
                    <str name="zkHost">${zkHost:}</str>
                    <int name="zkClientTimeout">30000</int>
                    <bool name="genericCoreNodeNames">true</bool>
                  </solrcloud>
                """
                + choice.shardHandlerFactory(cloudTalkServer)
                + "</solr>\n";
    }

    private StartedProcess startClient(String role, List<String> args) {
        return testbed.processes()
                .startJava(
                        Optional.of(aggregatorHost),
                        role,
                        CLIENT_HEAP,
                        classpath.classpath(),
                        LOAD_MAIN,
                        List.of("-Dlog4j2.level=WARN"),
                        args);
    }

    /** Waits until every node in {@code hosts} is in ZooKeeper's live nodes, as the first data node reports them. */
    private void awaitLive(List<Host> hosts, List<StartedProcess> processes) {
        Set<String> expected = hosts.stream().map(SolrCloud::nodeName).collect(Collectors.toSet());
        Readiness.await(testbed, "Solr", processes, READY_TIMEOUT, "CLUSTERSTATUS", () -> {
            Set<String> missing = new HashSet<>(expected);
            get(dataHosts.get(0), CLUSTER_STATUS)
                    .path("cluster")
                    .path("live_nodes")
                    .forEach(node -> missing.remove(node.asText()));
            return missing.isEmpty() ? Optional.empty() : Optional.of("not live yet: " + missing);
        });
    }

    private JsonNode get(Host host, String path) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://" + host.managementAddress() + ":" + SOLR_PORT + path))
                .timeout(Duration.ofSeconds(10))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException(path + ": HTTP " + response.statusCode());
            }
            return JSON.readTree(response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        }
    }

    private static String logOf(StartedProcess process) {
        try {
            return Files.readString(Path.of(process.log()));
        } catch (IOException e) {
            return "";
        }
    }

    private void stopAggregator() {
        if (aggregator != null) {
            testbed.processes().stop(aggregator);
            aggregator = null;
        }
    }

    /** Stops the aggregator, the data nodes and ZooKeeper, and deletes the cluster's directory. */
    @Override
    public void close() {
        stopAggregator();
        dataNodes.forEach(testbed.processes()::stop);
        dataNodes.clear();
        if (zooKeeper != null) {
            testbed.processes().stop(zooKeeper);
            zooKeeper = null;
        }
        Directories.deleteRecursively(directory);
        testbed.state().removeDirectory(directory);
    }
}
