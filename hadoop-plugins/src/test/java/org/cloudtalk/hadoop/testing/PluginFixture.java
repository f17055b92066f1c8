package org.cloudtalk.hadoop.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.cloudtalk.hadoop.hint.HintSettings;

/**
 * One test class's world: a controlled CloudTalk server, a {@link LoopbackCluster} whose NameNode runs the plugins
 * the class configures, and a client on 127.0.0.1 (no DataNode's host). Removes its files when closed.
 */
public final class PluginFixture implements AutoCloseable {
    public static final String CLIENT = "127.0.0.1";
    public static final int BLOCK = 1 << 20;
    /** Generous for a shared 2-core test machine; HintClientTest holds the deadline to milliseconds. */
    public static final long DEADLINE_MS = 1000;

    private final Path dir;
    private final List<String> hosts;
    private ControlledCloudTalk cloudTalk;
    private LoopbackCluster cluster;
    private DistributedFileSystem fs;

    private PluginFixture(Path dir, List<String> hosts) {
        this.dir = dir;
        this.hosts = hosts;
    }

    /** Starts everything; {@code plugins} sets the NameNode's plugin classes (and may change any other key). */
    public static PluginFixture start(List<String> hosts, List<String> racks, Consumer<Configuration> plugins)
            throws Exception {
        PluginFixture fixture = new PluginFixture(Files.createTempDirectory("cloudtalk-hdfs"), hosts);
        try {
            fixture.cloudTalk = ControlledCloudTalk.start(fixture.dir, fixture.allIdle());
            Configuration conf = new HdfsConfiguration();
            conf.set(
                    MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
                    fixture.dir.resolve("dfs").toString());
            conf.set(HintSettings.SERVER_URI, fixture.cloudTalk.uri());
            conf.setLong(HintSettings.DEADLINE_MS, DEADLINE_MS);
            // Every fallback is counted by its own cause (HintClientTest covers the back-off).
            conf.setLong(HintSettings.BACKOFF_MS, 0);
            plugins.accept(conf);
            conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
            conf.setLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
            fixture.cluster = LoopbackCluster.start(conf, hosts, racks);
            fixture.fs = fixture.cluster.clientFrom(CLIENT);
        } catch (Exception | Error e) {
            fixture.close();
            throw e;
        }
        return fixture;
    }

    /** Repeats {@code work} until the plugin has used an answer (JIT, first connections), for at most a minute. */
    public static void warmUp(LongSupplier answersUsed, ThrowingRunnable work) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (answersUsed.getAsLong() == 0 && System.nanoTime() < deadline) {
            work.run();
        }
        assertThat(answersUsed.getAsLong()).as("answers used after warming up").isPositive();
    }

    /** Something a test does that may throw. */
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    public ControlledCloudTalk cloudTalk() {
        return cloudTalk;
    }

    public LoopbackCluster cluster() {
        return cluster;
    }

    public MiniDFSCluster miniCluster() {
        return cluster.cluster();
    }

    public DistributedFileSystem fs() {
        return fs;
    }

    /** Every host idle, and a server answering again: what each test starts from. */
    public void reset() throws Exception {
        cloudTalk.load(allIdle(), Set.of());
        cloudTalk.stopServer();
        cloudTalk.startServer();
    }

    /** The client and the given hosts. */
    public static Set<String> withClient(Set<String> hosts) {
        Set<String> set = new TreeSet<>(hosts);
        set.add(CLIENT);
        return set;
    }

    private Set<String> allIdle() {
        return withClient(new TreeSet<>(hosts));
    }

    @Override
    public void close() throws Exception {
        if (fs != null) {
            fs.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (cloudTalk != null) {
            cloudTalk.close();
        }
        FileUtil.fullyDelete(dir.toFile());
    }
}
