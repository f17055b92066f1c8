package org.cloudtalk.hadoop.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;

/**
 * A MiniMRYarnCluster (ResourceManager, history server, shuffle configuration) whose NodeManagers each live on their
 * own loopback address (127.0.0.x), as {@link LoopbackCluster}'s DataNodes do: the address is the node's name in
 * YARN, the host of its containers and its CloudTalk endpoint. MiniMRYarnCluster's own NodeManagers would all be
 * {@code localhost}.
 */
public final class LoopbackYarn implements AutoCloseable {
    /** Each NodeManager's memory: room for four 256 MiB containers and an AM. */
    public static final int NODE_MEMORY_MB = 1536;

    private final MiniMRYarnCluster cluster;
    private final List<NodeManager> nodeManagers = new ArrayList<>();

    private LoopbackYarn(MiniMRYarnCluster cluster) {
        this.cluster = cluster;
    }

    /** Starts YARN with {@code conf} (the file system and scheduler keys) and one NodeManager per address. */
    public static LoopbackYarn start(Configuration conf, List<String> addresses, Path dir) throws IOException {
        MiniMRYarnCluster cluster = new MiniMRYarnCluster("cloudtalk-yarn", 0);
        LoopbackYarn yarn = new LoopbackYarn(cluster);
        try {
            cluster.init(conf);
            cluster.start();
            for (int i = 0; i < addresses.size(); i++) {
                yarn.startNodeManager(addresses.get(i), Files.createDirectories(dir.resolve("nm-" + i)));
            }
            yarn.awaitNodes(addresses.size());
        } catch (IOException | RuntimeException e) {
            yarn.close();
            throw e;
        }
        return yarn;
    }

    private void startNodeManager(String address, Path dir) throws IOException {
        Configuration conf = new YarnConfiguration(cluster.getConfig());
        // MiniDFSCluster statically resolves its DataNodes' addresses (ours are the same) to localhost: listening on
        // every address keeps the NodeManager reachable whichever way a client resolves its name.
        conf.set(YarnConfiguration.NM_BIND_HOST, "0.0.0.0");
        conf.set(YarnConfiguration.NM_ADDRESS, address + ":0");
        conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, address + ":0");
        conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, address + ":0");
        conf.set(
                YarnConfiguration.NM_LOCAL_DIRS,
                Files.createDirectories(dir.resolve("local")).toString());
        conf.set(
                YarnConfiguration.NM_LOG_DIRS,
                Files.createDirectories(dir.resolve("log")).toString());
        conf.setInt(YarnConfiguration.NM_PMEM_MB, NODE_MEMORY_MB);
        conf.setInt(YarnConfiguration.NM_VCORES, 4);
        conf.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
        conf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
        conf.setLong(YarnConfiguration.NM_RESOURCE_MON_INTERVAL_MS, 0);
        NodeManager nodeManager = new NodeManager();
        nodeManagers.add(nodeManager);
        nodeManager.init(conf);
        nodeManager.start();
    }

    private void awaitNodes(int count) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (resourceManager().getRMContext().getRMNodes().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "only " + resourceManager().getRMContext().getRMNodes().size() + " of " + count
                                + " NodeManagers registered within a minute");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    public Configuration config() {
        return cluster.getConfig();
    }

    public ResourceManager resourceManager() {
        return cluster.getResourceManager();
    }

    @Override
    public void close() {
        for (NodeManager nodeManager : nodeManagers) {
            nodeManager.stop();
        }
        cluster.stop();
    }
}
