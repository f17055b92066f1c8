package org.cloudtalk.hadoop.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.EnumSetWritable;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.hadoop.hdfs.read.CloudTalkNetworkTopology;
import org.cloudtalk.hadoop.hdfs.write.CloudTalkBlockPlacementPolicy;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.testing.PluginFixture;
import org.cloudtalk.lang.build.QueryBuilder;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * What the placement plugin costs the NameNode per block allocation: {@code ClientProtocol.addBlock} (which runs
 * the placement policy) from several threads against a NameNode with live DataNodes on two racks, with the stock
 * policy and with CloudTalk's (a real server on loopback, every host idle), alternating in rounds in one run. Each
 * allocated block is abandoned at once, so only the NameNode's work is timed.
 *
 * <p>Usage: {@code BlockAllocationBench THREADS ALLOCATIONS_PER_THREAD ROUNDS CSV DEADLINE_MS DATANODES}; one CSV
 * row per round and mode; the fallbacks by cause go to stderr.
 */
public final class BlockAllocationBench {
    private BlockAllocationBench() {}

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        Path csv = Path.of(args[3]);
        long deadlineMs = Long.parseLong(args[4]);
        int datanodes = Integer.parseInt(args[5]);
        List<String> hosts = new ArrayList<>();
        List<String> racks = new ArrayList<>();
        for (int i = 0; i < datanodes; i++) {
            hosts.add("127.0.0." + (31 + i));
            racks.add(i < datanodes / 2 ? "/r1" : "/r2");
        }
        Files.createDirectories(csv.toAbsolutePath().getParent());
        Files.writeString(
                csv,
                "round,mode,deadline_ms,threads,datanodes,allocations,seconds,allocations_per_second,p50_us,p99_us,"
                        + "queries,answers_used,answers_unused,fallbacks\n",
                StandardCharsets.UTF_8);
        for (int round = 1; round <= rounds; round++) {
            for (boolean plugin : new boolean[] {false, true}) {
                String row = round + "," + run(plugin, hosts, racks, threads, perThread, deadlineMs);
                System.out.println(row);
                Files.writeString(csv, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
        }
        System.exit(0);
    }

    private static String run(
            boolean plugin, List<String> hosts, List<String> racks, int threads, int perThread, long deadlineMs)
            throws Exception {
        try (PluginFixture fixture = PluginFixture.start(hosts, racks, conf -> {
            if (plugin) {
                conf.set(
                        DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
                        CloudTalkBlockPlacementPolicy.class.getName());
                conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, CloudTalkNetworkTopology.class.getName());
            }
            conf.setLong(HintSettings.DEADLINE_MS, deadlineMs);
            conf.unset(HintSettings.BACKOFF_MS);
        })) {
            ClientProtocol namenode = fixture.fs().getClient().getNamenode();
            String client = fixture.fs().getClient().getClientName();
            warmUpServer(fixture, hosts);
            allocate(namenode, client, threads, perThread / 2, "warmup"); // JIT, connections
            long start = System.nanoTime();
            long[] nanos = allocate(namenode, client, threads, perThread, "measured");
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(nanos);
            long fallbacks = 0;
            long queries = 0;
            long answers = 0;
            long unused = 0;
            if (plugin) {
                var metrics = ((CloudTalkBlockPlacementPolicy) fixture.miniCluster()
                                .getNamesystem()
                                .getBlockManager()
                                .getBlockPlacementPolicy())
                        .metrics()
                        .orElseThrow();
                StringBuilder causes = new StringBuilder("fallbacks by cause:");
                for (var cause : org.cloudtalk.hadoop.hint.Fallback.values()) {
                    fallbacks += metrics.fallbacks(cause);
                    causes.append(' ').append(cause).append('=').append(metrics.fallbacks(cause));
                }
                System.err.println(causes);
                queries = metrics.queries();
                answers = metrics.answersUsed();
                unused = metrics.answersUnused();
            }
            return String.format(
                    java.util.Locale.ROOT,
                    "%s,%d,%d,%d,%d,%.3f,%.0f,%d,%d,%d,%d,%d,%d",
                    plugin ? "cloudtalk" : "stock",
                    deadlineMs,
                    threads,
                    hosts.size(),
                    nanos.length,
                    seconds,
                    nanos.length / seconds,
                    nanos[nanos.length / 2] / 1000,
                    nanos[(int) (nanos.length * 0.99)] / 1000,
                    queries,
                    answers,
                    unused,
                    fallbacks);
        }
    }

    /**
     * The CloudTalk server runs in this JVM: compile its code (and the client's) before timing, as a long-running
     * server would be, with a write query like the policy's, under a deadline that lets every query finish.
     */
    private static void warmUpServer(PluginFixture fixture, List<String> hosts) throws Exception {
        CloudTalkClient direct =
                new CloudTalkClient(URI.create(fixture.cloudTalk().uri()), Duration.ofSeconds(5));
        String query = QueryPrinter.print(QueryBuilder.daisyChainWrites("127.0.0.1", 2, 3, hosts, PluginFixture.BLOCK)
                .build());
        for (int i = 0; i < 1000; i++) {
            direct.query(query, EvaluatorName.HEURISTIC, false, true, Duration.ofSeconds(5));
        }
    }

    /** Every thread creates a file and allocates (then abandons) a block {@code count} times; the addBlock times. */
    private static long[] allocate(ClientProtocol namenode, String client, int threads, int count, String phase)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String src = "/bench/" + phase + "-" + t;
                results.add(pool.submit(() -> allocations(namenode, client, src, count)));
            }
            long[] all = new long[threads * count];
            for (int t = 0; t < threads; t++) {
                System.arraycopy(results.get(t).get(), 0, all, t * count, count);
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long[] allocations(ClientProtocol namenode, String client, String src, int count)
            throws IOException {
        HdfsFileStatus file = namenode.create(
                src,
                FsPermission.getFileDefault(),
                client,
                new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)),
                true,
                (short) 3,
                PluginFixture.BLOCK,
                CryptoProtocolVersion.supported(),
                null,
                null);
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            LocatedBlock block = namenode.addBlock(src, client, null, null, file.getFileId(), null, null);
            nanos[i] = System.nanoTime() - start;
            namenode.abandonBlock(block.getBlock(), file.getFileId(), src, client);
        }
        return nanos;
    }
}
