package org.cloudtalk.hadoop.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.cloudtalk.hadoop.hdfs.read.CloudTalkNetworkTopology;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.cloudtalk.hadoop.testing.MisbehavingServer;
import org.cloudtalk.hadoop.testing.PluginFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read plugin on a real MiniDFSCluster — four DataNodes on 127.0.0.21-24, two racks, stock block placement —
 * with a real CloudTalk server: a reader off the cluster (127.0.0.1, equally far from every replica) is sent to the
 * replica CloudTalk prefers, whichever of the three that is, and reads keep working when the server is unusable.
 */
class HdfsReadOrderingTest {
    private static final List<String> HOSTS = List.of("127.0.0.21", "127.0.0.22", "127.0.0.23", "127.0.0.24");
    private static final List<String> RACKS = List.of("/r1", "/r1", "/r2", "/r2");
    private static final int BLOCK = PluginFixture.BLOCK;
    private static final Path FILE = new Path("/read/file");

    private static PluginFixture fixture;
    private static ControlledCloudTalk cloudTalk;
    private static DistributedFileSystem fs;
    private static byte[] data;

    @BeforeAll
    static void start() throws Exception {
        fixture = PluginFixture.start(
                HOSTS,
                RACKS,
                conf -> conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, CloudTalkNetworkTopology.class.getName()));
        cloudTalk = fixture.cloudTalk();
        fs = fixture.fs();
        data = new byte[2 * BLOCK];
        ThreadLocalRandom.current().nextBytes(data);
        try (FSDataOutputStream out = fs.create(FILE, (short) 3)) {
            out.write(data);
        }
        DFSTestUtil.waitReplication(fs, FILE, (short) 3);
        PluginFixture.warmUp(() -> metrics().answersUsed(), HdfsReadOrderingTest::blocks);
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
    void theReaderIsSentToTheReplicaCloudTalkPrefers() throws Exception {
        List<LocatedBlock> blocks = blocks();
        for (int b = 0; b < blocks.size(); b++) {
            for (DatanodeInfo preferred : blocks.get(b).getLocations()) {
                Set<String> busy = new TreeSet<>(HOSTS);
                busy.remove(preferred.getIpAddr());
                cloudTalk.load(PluginFixture.withClient(Set.of(preferred.getIpAddr())), busy);

                assertThat(blocks().get(b).getLocations()[0].getIpAddr()).isEqualTo(preferred.getIpAddr());
                try (HdfsDataInputStream in = (HdfsDataInputStream) fs.open(FILE)) {
                    in.seek((long) b * BLOCK);
                    assertThat(in.read()).isEqualTo(data[b * BLOCK] & 0xff);
                    assertThat(in.getCurrentDatanode().getIpAddr()).isEqualTo(preferred.getIpAddr());
                }
            }
        }
    }

    @Test
    void aStoppedServerLeavesHdfsOrder() throws Exception {
        cloudTalk.stopServer();
        assertReadsFallBack(Fallback.UNAVAILABLE);
    }

    @Test
    void aServerThatDoesNotAnswerLeavesHdfsOrder() throws Exception {
        cloudTalk.stopServer();
        try (MisbehavingServer silent = MisbehavingServer.silent(cloudTalk.port())) {
            assertReadsFallBack(Fallback.TIMEOUT);
        }
    }

    @Test
    void anAnswerNamingAHostThatIsNotAReplicaIsIgnored() throws Exception {
        cloudTalk.stopServer();
        String lie = "{\"bindings\":{\"src\":\"127.0.0.99\"},\"evaluator\":\"heuristic\","
                + "\"estimatedCompletionSeconds\":null,"
                + "\"status\":{\"asked\":3,\"answered\":3,\"reused\":0,\"sampled\":false},\"elapsedMicros\":10}";
        try (MisbehavingServer liar = MisbehavingServer.answering(cloudTalk.port(), lie)) {
            assertReadsFallBack(Fallback.BAD_ANSWER);
        }
    }

    @Test
    void aReadOfAOneBlockFileAsksOnce() throws Exception {
        // getBlockLocations sorts a file's last block twice (in the block list and as its last block): one question,
        // so that no second reservation lands on a replica the read does not use.
        Path small = new Path("/read/one-block");
        byte[] written = new byte[BLOCK / 2];
        ThreadLocalRandom.current().nextBytes(written);
        try (FSDataOutputStream out = fs.create(small, (short) 3)) {
            out.write(written);
        }
        DFSTestUtil.waitReplication(fs, small, (short) 3);

        long before = metrics().queries();
        byte[] read = new byte[written.length];
        try (HdfsDataInputStream in = (HdfsDataInputStream) fs.open(small)) {
            in.readFully(0, read);
        }

        assertThat(read).isEqualTo(written);
        assertThat(metrics().queries() - before).isEqualTo(1);
    }

    /**
     * The whole file reads back intact, twice, and each open's ordering counted a fallback per replica set among its
     * blocks (one RPC asks once per reader and replica set).
     */
    private static void assertReadsFallBack(Fallback cause) throws Exception {
        long replicaSets = blocks().stream()
                .map(block -> {
                    Set<String> hosts = new TreeSet<>();
                    for (DatanodeInfo replica : block.getLocations()) {
                        hosts.add(replica.getIpAddr());
                    }
                    return hosts;
                })
                .distinct()
                .count();
        long before = metrics().fallbacks(cause);
        for (int i = 0; i < 2; i++) {
            byte[] read = new byte[data.length];
            try (HdfsDataInputStream in = (HdfsDataInputStream) fs.open(FILE)) {
                in.readFully(0, read);
            }
            assertThat(read).isEqualTo(data);
        }
        assertThat(metrics().fallbacks(cause)).isGreaterThanOrEqualTo(before + 2 * replicaSets);
    }

    private static List<LocatedBlock> blocks() throws Exception {
        return new ArrayList<>(fs.getClient()
                .getLocatedBlocks(FILE.toUri().getPath(), 0, Long.MAX_VALUE)
                .getLocatedBlocks());
    }

    private static HintMetrics metrics() {
        return ((CloudTalkNetworkTopology) fixture.miniCluster()
                        .getNamesystem()
                        .getBlockManager()
                        .getDatanodeManager()
                        .getNetworkTopology())
                .metrics()
                .orElseThrow();
    }
}
