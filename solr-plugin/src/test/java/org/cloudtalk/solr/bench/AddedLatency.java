package org.cloudtalk.solr.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;
import org.cloudtalk.solr.replica.Advice;
import org.cloudtalk.solr.replica.AdvisorConfig;
import org.cloudtalk.solr.replica.AdvisorMetrics;
import org.cloudtalk.solr.replica.ClientHintSource;
import org.cloudtalk.solr.replica.ReplicaAdvisor;

/**
 * The plugin's added latency per distributed request: the time {@link ReplicaAdvisor#advise} plus the reordering take
 * on the request's thread, against a real CloudTalk server on loopback (status file, heuristic), with the cache on
 * (TTL 200 ms, the default) and off (TTL 0: every request asks the server). Sequential requests, after a warm-up.
 * Usage: {@code AddedLatency SHARDS REQUESTS CSV_FILE}. Prints one CSV line per (shards, cache) to stdout and appends
 * it to the file.
 */
public final class AddedLatency {
    private AddedLatency() {}

    public static void main(String[] args) throws Exception {
        int shards = Integer.parseInt(args[0]);
        int requests = Integer.parseInt(args[1]);
        Path csv = Path.of(args[2]);
        Path dir = Files.createTempDirectory("cloudtalk-solr-bench");
        Path status = dir.resolve("status.json");
        StringBuilder json = new StringBuilder("{\"hosts\": {");
        int hosts = shards * 2 + 1;
        for (int i = 1; i <= hosts; i++) {
            json.append(i > 1 ? "," : "")
                    .append("\"10.0.0.")
                    .append(i)
                    .append("\": {\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9,")
                    .append(" \"nicTxUseBitsPerSecond\": ")
                    .append(i * 1e7)
                    .append(", \"diskReadCapacityBytesPerSecond\": 2e8, \"diskWriteCapacityBytesPerSecond\": 2e8}");
        }
        Files.writeString(status, json.append("}}"));
        // Every shard on two hosts of its own; the aggregator is the last host.
        Map<String, List<String>> shardNodes = new HashMap<>();
        StringBuilder hostMap = new StringBuilder();
        for (int s = 0; s < shards; s++) {
            shardNodes.put("shard" + s, List.of("n" + (2 * s + 1) + ":8983_solr", "n" + (2 * s + 2) + ":8983_solr"));
        }
        for (int i = 1; i <= hosts; i++) {
            hostMap.append(i > 1 ? "," : "")
                    .append("n")
                    .append(i)
                    .append("=10.0.0.")
                    .append(i);
        }
        String aggregator = "n" + hosts + ":8983_solr";
        boolean header = !Files.exists(csv);
        try (CloudTalkServer server = CloudTalkServer.start(ServerConfig.from(
                        Map.of("port", "0", "status.file", status.toString(), "reservation.hold.ms", "0")));
                PrintStream out = new PrintStream(
                        Files.newOutputStream(
                                csv, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND),
                        true)) {
            if (header) {
                out.println("shards,cache_ttl_ms,requests,fallbacks,p50_us,p90_us,p99_us,max_us");
            }
            for (int ttl : new int[] {200, 0}) {
                String line = run(server, shardNodes, aggregator, hostMap.toString(), ttl, requests, shards);
                System.out.println(line);
                out.println(line);
            }
        } finally {
            Files.deleteIfExists(status);
            Files.deleteIfExists(dir);
        }
    }

    private static String run(
            CloudTalkServer server,
            Map<String, List<String>> shardNodes,
            String aggregator,
            String hostMap,
            int ttl,
            int requests,
            int shards)
            throws Exception {
        AdvisorConfig config = AdvisorConfig.from(Map.of(
                AdvisorConfig.SERVER,
                "http://127.0.0.1:" + server.localAddress().getPort(),
                AdvisorConfig.HOST_MAP,
                hostMap,
                AdvisorConfig.CACHE_TTL_MS,
                Integer.toString(ttl)));
        ExecutorService http = Executors.newCachedThreadPool();
        CloudTalkClient client = new CloudTalkClient(config.server(), config.queryTimeout(), http);
        try (ReplicaAdvisor advisor =
                new ReplicaAdvisor(config, new ClientHintSource(client, config.evaluator()), AdvisorMetrics.NONE)) {
            for (int i = 0; i < Math.max(2000, requests / 5); i++) {
                request(advisor, aggregator, shardNodes);
            }
            long[] nanos = new long[requests];
            int fallbacks = 0;
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                Advice advice = request(advisor, aggregator, shardNodes);
                nanos[i] = System.nanoTime() - start;
                fallbacks += advice.fallback().isPresent() ? 1 : 0;
            }
            Arrays.sort(nanos);
            return String.format(
                    Locale.ROOT,
                    "%d,%d,%d,%d,%.1f,%.1f,%.1f,%.1f",
                    shards,
                    ttl,
                    requests,
                    fallbacks,
                    percentile(nanos, 0.50),
                    percentile(nanos, 0.90),
                    percentile(nanos, 0.99),
                    nanos[nanos.length - 1] / 1e3);
        } finally {
            http.shutdownNow();
        }
    }

    /** What the transformer does for one request: advise once, reorder each shard's replicas. */
    private static Advice request(ReplicaAdvisor advisor, String aggregator, Map<String, List<String>> shardNodes) {
        Advice advice = advisor.advise(aggregator, shardNodes);
        shardNodes.forEach((shard, nodes) -> advice.order(shard, new ArrayList<>(nodes), node -> node));
        return advice;
    }

    private static double percentile(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e3;
    }
}
