package org.cloudtalk.hadoop.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.cloudtalk.hadoop.hdfs.read.CloudTalkNetworkTopology;
import org.cloudtalk.hadoop.hdfs.write.CloudTalkBlockPlacementPolicy;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.testing.Blocks;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.cloudtalk.hadoop.testing.MisbehavingServer;
import org.cloudtalk.hadoop.testing.PluginFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The write plugin on a real MiniDFSCluster — six DataNodes on 127.0.0.11-16, two racks — with a real CloudTalk
 * server whose host load the test sets: replicas land on the hosts CloudTalk names, within HDFS's rack rules (as
 * fsck checks them), and every failure of the server leaves writes working on the default placement.
 */
class HdfsWritePlacementTest {
    private static final List<String> HOSTS =
            List.of("127.0.0.11", "127.0.0.12", "127.0.0.13", "127.0.0.14", "127.0.0.15", "127.0.0.16");
    private static final List<String> RACKS = List.of("/r1", "/r1", "/r1", "/r2", "/r2", "/r2");
    private static final int BLOCK = PluginFixture.BLOCK;

    private static PluginFixture fixture;
    private static ControlledCloudTalk cloudTalk;
    private static DistributedFileSystem fs;
    private static int files;

    @BeforeAll
    static void start() throws Exception {
        fixture = PluginFixture.start(HOSTS, RACKS, conf -> {
            conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, CloudTalkBlockPlacementPolicy.class.getName());
            conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, CloudTalkNetworkTopology.class.getName());
            conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 3);
            // One query places at most two blocks: two chains of two replicas fit the four idle hosts of the
            // concurrent-writes test (six hosts fit three).
            conf.setInt(HdfsHintSettings.BLOCKS_PER_QUERY, 2);
        });
        cloudTalk = fixture.cloudTalk();
        fs = fixture.fs();
        PluginFixture.warmUp(() -> metrics().answersUsed(), () -> Blocks.write(fs, next(), BLOCK));
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @AfterEach
    void reset() throws Exception {
        fixture.reset();
    }

    @Test
    void replicasGoToTheIdleHostsCloudTalkNames() throws Exception {
        cloudTalk.load(
                PluginFixture.withClient(Set.of("127.0.0.13", "127.0.0.15", "127.0.0.16")),
                Set.of("127.0.0.11", "127.0.0.12", "127.0.0.14"));
        long used = metrics().answersUsed();
        for (int i = 0; i < 4; i++) {
            Path path = next();
            Blocks.write(fs, path, BLOCK);
            for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                assertThat(Blocks.addresses(replicas)).containsExactly("127.0.0.13", "127.0.0.15", "127.0.0.16");
            }
            assertHealthy(path);
        }
        assertThat(metrics().answersUsed()).isGreaterThanOrEqualTo(used + 4);
    }

    @Test
    void aBusyWriterDoesNotGetTheFirstReplicaAndAnIdleOneDoes() throws Exception {
        try (DistributedFileSystem onHost11 = fixture.cluster().clientFrom("127.0.0.11")) {
            cloudTalk.load(
                    Set.of("127.0.0.13", "127.0.0.15", "127.0.0.16"), Set.of("127.0.0.11", "127.0.0.12", "127.0.0.14"));
            for (int i = 0; i < 3; i++) {
                Path path = next();
                Blocks.write(onHost11, path, BLOCK);
                for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                    assertThat(Blocks.addresses(replicas)).containsExactly("127.0.0.13", "127.0.0.15", "127.0.0.16");
                }
            }
            cloudTalk.load(
                    Set.of("127.0.0.11", "127.0.0.15", "127.0.0.16"), Set.of("127.0.0.12", "127.0.0.13", "127.0.0.14"));
            for (int i = 0; i < 3; i++) {
                Path path = next();
                Blocks.write(onHost11, path, BLOCK);
                for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                    assertThat(Blocks.addresses(replicas)).containsExactly("127.0.0.11", "127.0.0.15", "127.0.0.16");
                }
            }
        }
    }

    @Test
    void aWriterAskingForNoLocalReplicaGetsNoneEvenWhenItsHostIsIdle() throws Exception {
        try (DistributedFileSystem onHost11 = fixture.cluster().clientFrom("127.0.0.11")) {
            cloudTalk.load(
                    Set.of("127.0.0.11", "127.0.0.15", "127.0.0.16"), Set.of("127.0.0.12", "127.0.0.13", "127.0.0.14"));
            for (int i = 0; i < 3; i++) {
                Path path = next();
                try (FSDataOutputStream out = onHost11.create(
                        path,
                        FsPermission.getFileDefault(),
                        EnumSet.of(CreateFlag.CREATE, CreateFlag.NO_LOCAL_WRITE),
                        4096,
                        (short) 3,
                        BLOCK,
                        null)) {
                    out.write(new byte[BLOCK]);
                }
                for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                    assertThat(Blocks.addresses(replicas))
                            .doesNotContain("127.0.0.11")
                            .contains("127.0.0.15", "127.0.0.16");
                }
            }
        }
    }

    @Test
    void aDecommissioningHostCloudTalkPrefersGetsNoReplica() throws Exception {
        FSNamesystem namesystem = fixture.miniCluster().getNamesystem();
        DatanodeManager datanodes = namesystem.getBlockManager().getDatanodeManager();
        DatanodeDescriptor host13 = null;
        for (DataNode datanode : fixture.miniCluster().getDataNodes()) {
            if (datanode.getDatanodeId().getIpAddr().equals("127.0.0.13")) {
                host13 = datanodes.getDatanode(datanode.getDatanodeId());
            }
        }
        assertThat(host13).isNotNull();
        cloudTalk.load(
                PluginFixture.withClient(Set.of("127.0.0.13", "127.0.0.15", "127.0.0.16")),
                Set.of("127.0.0.11", "127.0.0.12", "127.0.0.14"));
        decommission(namesystem, datanodes, host13, true);
        try {
            for (int i = 0; i < 3; i++) {
                Path path = next();
                Blocks.write(fs, path, BLOCK);
                for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                    assertThat(Blocks.addresses(replicas))
                            .doesNotContain("127.0.0.13")
                            .contains("127.0.0.15", "127.0.0.16");
                    assertThat(Blocks.racks(replicas)).containsExactly("/r1", "/r2");
                }
            }
        } finally {
            decommission(namesystem, datanodes, host13, false);
        }
    }

    private static void decommission(
            FSNamesystem namesystem, DatanodeManager datanodes, DatanodeDescriptor node, boolean start) {
        namesystem.writeLock();
        try {
            if (start) {
                datanodes.getDatanodeAdminManager().startDecommission(node);
            } else {
                datanodes.getDatanodeAdminManager().stopDecommission(node);
            }
        } finally {
            namesystem.writeUnlock();
        }
    }

    @Test
    void rackRulesOverruleAnAnswerOnOneRack() throws Exception {
        cloudTalk.load(
                PluginFixture.withClient(Set.of("127.0.0.11", "127.0.0.12", "127.0.0.13")),
                Set.of("127.0.0.14", "127.0.0.15", "127.0.0.16"));
        long overruled = metrics().choicesOverruled();
        for (int i = 0; i < 3; i++) {
            Path path = next();
            Blocks.write(fs, path, BLOCK);
            for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                assertThat(Blocks.racks(replicas)).containsExactly("/r1", "/r2");
                assertThat(Blocks.addresses(replicas))
                        .filteredOn(Set.of("127.0.0.11", "127.0.0.12", "127.0.0.13")::contains)
                        .hasSize(2);
            }
            assertHealthy(path);
        }
        assertThat(metrics().choicesOverruled()).isGreaterThanOrEqualTo(overruled + 3);
    }

    @Test
    void concurrentWritesShareQueriesAndStillAvoidTheBusyHosts() throws Exception {
        Set<String> idle = Set.of("127.0.0.11", "127.0.0.12", "127.0.0.14", "127.0.0.15");
        cloudTalk.load(PluginFixture.withClient(idle), Set.of("127.0.0.13", "127.0.0.16"));
        HintMetrics metrics = metrics();
        long queries = metrics.queries();
        long used = metrics.answersUsed();
        long overruled = metrics.choicesOverruled();
        // Fewer writers than the client has query threads, so no block falls back for want of one.
        int writers = 12;
        int rounds = 3;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < writers * rounds; i++) {
            paths.add(next());
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(writers);
                List<Future<?>> writes = new ArrayList<>();
                for (Path path : paths.subList(round * writers, (round + 1) * writers)) {
                    writes.add(pool.submit(() -> {
                        start.await();
                        Blocks.write(fs, path, BLOCK, (short) 2);
                        return null;
                    }));
                }
                for (Future<?> write : writes) {
                    write.get(60, TimeUnit.SECONDS);
                }
            }
        } finally {
            pool.shutdownNow();
        }

        // HDFS's own rules still apply: considerLoad skips a DataNode busy with more than twice the average transfers,
        // which twelve concurrent pipelines on four idle hosts can make them. Every replica off the idle hosts must
        // be one the policy counted as overruled by those rules.
        long onBusyHosts = 0;
        for (Path path : paths) {
            for (DatanodeInfo[] replicas : Blocks.replicas(fs, path, (short) 2)) {
                assertThat(Blocks.racks(replicas)).hasSize(2);
                onBusyHosts += Blocks.addresses(replicas).stream()
                        .filter(host -> !idle.contains(host))
                        .count();
            }
        }
        assertThat(onBusyHosts)
                .as("replicas on busy hosts, at most those HDFS's rules overruled")
                .isLessThanOrEqualTo(metrics.choicesOverruled() - overruled);
        assertThat(metrics.answersUsed()).as("blocks placed by an answer").isEqualTo(used + paths.size());
        assertThat(metrics.queries())
                .as("queries for %d blocks allocated %d at a time", paths.size(), writers)
                .isLessThan(queries + paths.size());
    }

    @Test
    void aStoppedServerLeavesTheDefaultPlacement() throws Exception {
        cloudTalk.stopServer();
        assertWritesFallBack(Fallback.UNAVAILABLE);
    }

    @Test
    void aServerThatDoesNotAnswerCostsAtMostTheDeadline() throws Exception {
        cloudTalk.stopServer();
        try (MisbehavingServer silent = MisbehavingServer.silent(cloudTalk.port())) {
            long slowestWriteMs = assertWritesFallBack(Fallback.TIMEOUT);
            // A one-block file waits at most the deadline for CloudTalk, plus the write itself.
            assertThat(slowestWriteMs).isLessThan(PluginFixture.DEADLINE_MS + 3000);
        }
    }

    @Test
    void anAnswerNamingAHostThatIsNotACandidateIsIgnored() throws Exception {
        cloudTalk.stopServer();
        String lie = "{\"bindings\":{\"b1r1\":\"10.9.9.9\",\"b1r2\":\"127.0.0.11\",\"b1r3\":\"127.0.0.12\"},"
                + "\"evaluator\":\"heuristic\",\"estimatedCompletionSeconds\":null,"
                + "\"status\":{\"asked\":6,\"answered\":6,\"reused\":0,\"sampled\":false},\"elapsedMicros\":10}";
        try (MisbehavingServer liar = MisbehavingServer.answering(cloudTalk.port(), lie)) {
            assertWritesFallBack(Fallback.BAD_ANSWER);
        }
        try (MisbehavingServer garbage = MisbehavingServer.answering(cloudTalk.port(), "<html>not json")) {
            assertWritesFallBack(Fallback.BAD_ANSWER);
        }
    }

    @Test
    void theMetricsAreInTheNameNodesJmx() throws Exception {
        Blocks.write(fs, next(), BLOCK);
        // Metrics2 refreshes what JMX shows at most every few seconds.
        String write = jmx("CloudTalkHdfsWrite*");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!write.contains("\"AnswersUsed\" : 0,") == false && System.nanoTime() < deadline) {
            Thread.sleep(500);
            write = jmx("CloudTalkHdfsWrite*");
        }
        assertThat(write).contains("\"FallbacksTimeout\"", "\"ChoicesOverruled\"", "QueryLatencyMicrosAvgTime");
        assertThat(counter(write, "Queries")).isPositive();
        assertThat(counter(write, "AnswersUsed")).isPositive();
        assertThat(counter(write, "ChoicesAsAnswered")).isPositive();
        String read = jmx("CloudTalkHdfsRead*");
        assertThat(read).contains("\"AnswersUsed\"", "\"FallbacksUnavailable\"");
    }

    /** What the NameNode's /jmx servlet shows for its metrics sources matching {@code name}. */
    private static String jmx(String name) throws Exception {
        java.net.InetSocketAddress http = fixture.miniCluster().getNameNode().getHttpAddress();
        URI uri = URI.create("http://" + http.getHostString() + ":" + http.getPort()
                + "/jmx?qry=Hadoop:service=NameNode,name=" + name);
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private static long counter(String jmx, String name) {
        Matcher value = Pattern.compile("\"" + name + "\" : (\\d+)").matcher(jmx);
        assertThat(value.find()).as("%s in %s", name, jmx).isTrue();
        return Long.parseLong(value.group(1));
    }

    /**
     * Three files written with CloudTalk unusable: none fails, each counts a fallback, racks still hold. Returns the
     * slowest write's time, in ms.
     */
    private static long assertWritesFallBack(Fallback cause) throws Exception {
        long before = metrics().fallbacks(cause);
        long slowest = 0;
        for (int i = 0; i < 3; i++) {
            Path path = next();
            long start = System.nanoTime();
            Blocks.write(fs, path, BLOCK);
            slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
            for (DatanodeInfo[] replicas : Blocks.replicas(fs, path)) {
                assertThat(replicas).hasSize(3);
                assertThat(Blocks.racks(replicas)).hasSize(2);
            }
            assertHealthy(path);
        }
        assertThat(metrics().fallbacks(cause)).isGreaterThanOrEqualTo(before + 3);
        return slowest;
    }

    private static void assertHealthy(Path path) throws Exception {
        String report = Blocks.fsck(fixture.miniCluster().getConfiguration(0), path);
        assertThat(report).contains("is HEALTHY").containsPattern("Mis-replicated blocks:\\s+0 ");
    }

    private static HintMetrics metrics() {
        return ((CloudTalkBlockPlacementPolicy)
                        fixture.miniCluster().getNamesystem().getBlockManager().getBlockPlacementPolicy())
                .metrics()
                .orElseThrow();
    }

    private static Path next() {
        return new Path("/placement/f" + files++);
    }
}
