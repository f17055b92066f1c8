package org.cloudtalk.solr.testbed;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.common.cloud.ZkMaintenanceUtils;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The client side of the testbed's {@code solr-replicas} experiment: {@code setup} creates the collection and indexes
 * synthetic documents; {@code load} sends searches to one node at a Poisson rate (open loop: a request's latency counts
 * from when it was due, so a slow system cannot slow the offered load down) and writes one CSV line per request.
 */
@Command(
        name = "solr-load",
        mixinStandardHelpOptions = true,
        subcommands = {SolrLoadMain.Setup.class, SolrLoadMain.Load.class})
public final class SolrLoadMain {
    static final String CONFIGSET = "testbed";
    /** Queries draw their term from the most frequent words, so that every shard has matches to return. */
    static final int QUERY_TERMS = 200;

    static final int VOCABULARY = 5000;

    static final int WARM_UP_SEARCHES = 10;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SolrLoadMain()).execute(args));
    }

    @Command(name = "setup", description = "Uploads the config set, creates the collection and indexes documents.")
    static final class Setup implements Callable<Integer> {
        @Option(names = "--zk", required = true)
        String zooKeeper;

        @Option(names = "--collection", required = true)
        String collection;

        @Option(names = "--shards", required = true)
        int shards;

        @Option(names = "--replicas", required = true)
        int replicas;

        @Option(names = "--nodes", required = true, split = ",", description = "Node names to hold the replicas.")
        List<String> nodes;

        @Option(names = "--docs", required = true)
        int docs;

        @Option(names = "--words", required = true, description = "Words per document body.")
        int words;

        @Option(names = "--seed", defaultValue = "1")
        long seed;

        @Override
        public Integer call() throws Exception {
            try (SolrZkClient zk = new SolrZkClient.Builder()
                    .withUrl(zooKeeper)
                    .withTimeout(30, TimeUnit.SECONDS)
                    .build()) {
                Path conf = Path.of(SolrLoadMain.class
                        .getResource("/configsets/" + CONFIGSET + "/conf")
                        .toURI());
                ZkMaintenanceUtils.uploadToZK(zk, conf, "/configs/" + CONFIGSET, null);
            }
            try (CloudSolrClient client =
                    new CloudHttp2SolrClient.Builder(List.of(zooKeeper), Optional.empty()).build()) {
                CollectionAdminRequest.createCollection(collection, CONFIGSET, shards, replicas)
                        .setCreateNodeSet(String.join(",", nodes))
                        .process(client);
                awaitActive(client, shards * replicas);
                Random random = new Random(seed);
                List<SolrInputDocument> batch = new ArrayList<>();
                for (int i = 0; i < docs; i++) {
                    SolrInputDocument doc = new SolrInputDocument();
                    doc.addField("id", "doc-" + i);
                    doc.addField("body", body(random, words));
                    batch.add(doc);
                    if (batch.size() == 500) {
                        client.add(collection, batch);
                        batch.clear();
                    }
                }
                if (!batch.isEmpty()) {
                    client.add(collection, batch);
                }
                client.commit(collection);
                System.out.println("indexed " + docs + " documents into " + collection);
            }
            return 0;
        }

        private void awaitActive(CloudSolrClient client, int expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                DocCollection state = client.getClusterState().getCollectionOrNull(collection);
                var live = client.getClusterState().getLiveNodes();
                long active = state == null
                        ? 0
                        : state.getReplicas().stream()
                                .filter(r -> r.getState() == Replica.State.ACTIVE && live.contains(r.getNodeName()))
                                .count();
                if (active == expected) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            collection + ": " + active + " of " + expected + " replicas active after 120 s");
                }
                Thread.sleep(250);
            }
        }

        /** Words drawn from a Zipf-like distribution (word k with weight 1/(k+1)), as natural text. */
        private static String body(Random random, int words) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < words; w++) {
                double u = random.nextDouble();
                int k = (int) Math.floor(Math.pow(VOCABULARY + 1, u)) - 1;
                text.append(w == 0 ? "" : " ").append("w").append(Math.min(k, VOCABULARY - 1));
            }
            return text.toString();
        }
    }

    @Command(name = "load", description = "Sends searches at a Poisson rate; one CSV line per request.")
    static final class Load implements Callable<Integer> {
        @Option(names = "--url", required = true, description = "The node's base URL, e.g. http://10.77.1.1:8983/solr")
        String url;

        @Option(names = "--collection", required = true)
        String collection;

        @Option(names = "--rate", required = true, description = "Requests per second.")
        double rate;

        @Option(names = "--seconds", required = true)
        double seconds;

        @Option(names = "--rows", defaultValue = "100")
        int rows;

        @Option(names = "--param", description = "An extra request parameter NAME=VALUE (e.g. shards.preference).")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--threads", defaultValue = "64")
        int threads;

        @Option(names = "--seed", defaultValue = "1")
        long seed;

        @Option(names = "--out", required = true, description = "CSV: due_ms,latency_ms,ok,hosts")
        Path out;

        @Override
        public Integer call() throws Exception {
            if (!(rate > 0) || !(seconds > 0)) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "Invalid value " + rate + "/" + seconds + " for --rate/--seconds");
            }
            Random random = new Random(seed);
            ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
            // Beyond `threads` searches in flight, searches wait in the client (as in an application with that many
            // request threads); their latency still counts from when they were due.
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long sent = 0;
            try (SolrClient client = new Http2SolrClient.Builder(url)
                    .withConnectionTimeout(10, TimeUnit.SECONDS)
                    .withIdleTimeout(60, TimeUnit.SECONDS)
                    .withRequestTimeout(60, TimeUnit.SECONDS)
                    .build()) {
                // The client's own start (connections, its JIT) is not the cluster's latency: a few searches first,
                // one at a time and not recorded.
                for (int i = 0; i < WARM_UP_SEARCHES; i++) {
                    search(client, "w" + random.nextInt(QUERY_TERMS), System.nanoTime(), System.nanoTime());
                }
                long start = System.nanoTime();
                long end = start + (long) (seconds * 1e9);
                double due = 0;
                while (true) {
                    due += -Math.log(1 - random.nextDouble()) / rate;
                    long dueNanos = start + (long) (due * 1e9);
                    if (dueNanos >= end) {
                        break;
                    }
                    String term = "w" + random.nextInt(QUERY_TERMS);
                    long wait = dueNanos - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    pool.execute(() -> lines.add(search(client, term, dueNanos, start)));
                    sent++;
                }
                pool.shutdown();
                if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
                    pool.shutdownNow();
                    System.err.println("searches still waiting or running 120 s after the last was due: failed");
                }
            }
            // Searches that never ended count as failures, not as absent.
            for (long missing = sent - lines.size(); missing > 0; missing--) {
                lines.add("NaN,NaN,false,");
            }
            Files.createDirectories(out.toAbsolutePath().getParent());
            try (PrintWriter writer = new PrintWriter(Files.newBufferedWriter(out))) {
                writer.println("due_ms,latency_ms,ok,hosts");
                lines.forEach(writer::println);
            }
            long failed = lines.stream().filter(l -> l.contains(",false,")).count();
            System.out.println(lines.size() + " requests, " + failed + " failed");
            return 0;
        }

        /** One CSV line: when it was due, its latency, whether it succeeded, and the replica hosts that answered. */
        private String search(SolrClient client, String term, long dueNanos, long start) {
            ModifiableSolrParams query = new ModifiableSolrParams();
            query.set("q", "body:" + term);
            query.set("rows", rows);
            query.set("fl", "id,body");
            // Solr's own record of the replica each shard request went to.
            query.set("shards.info", true);
            params.forEach(query::set);
            boolean ok;
            List<String> hosts = new ArrayList<>();
            try {
                NamedList<Object> response = client.request(new QueryRequest(query), collection);
                ok = response.get("response") != null;
                if (response.get("shards.info") instanceof NamedList<?> shards) {
                    shards.forEach((shard, info) -> hosts.add(answeringHost(info)));
                }
            } catch (Exception e) {
                System.err.println("request failed: " + e);
                ok = false;
            }
            long now = System.nanoTime();
            return String.format(
                    Locale.ROOT,
                    "%.3f,%.3f,%s,%s",
                    (dueNanos - start) / 1e6,
                    (now - dueNanos) / 1e6,
                    ok,
                    String.join(";", hosts));
        }

        /** The host of a shard response's {@code shardAddress} (a core's or a node's URL). */
        private static String answeringHost(Object info) {
            if (info instanceof NamedList<?> fields && fields.get("shardAddress") instanceof String address) {
                return URI.create(address).getHost();
            }
            return "?";
        }
    }
}
