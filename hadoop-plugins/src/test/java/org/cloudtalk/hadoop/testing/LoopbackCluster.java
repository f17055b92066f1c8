package org.cloudtalk.hadoop.testing;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A MiniDFSCluster whose DataNodes each live on their own loopback address (127.0.0.x): they listen there, reach
 * the NameNode from there ({@link BoundSocketFactory}) and so register with that IP, which is their CloudTalk
 * endpoint. Clients can be given an address too, so the NameNode sees a writer on a DataNode's host.
 */
public final class LoopbackCluster implements AutoCloseable {
    private final MiniDFSCluster cluster;
    private final Configuration conf;

    private LoopbackCluster(MiniDFSCluster cluster, Configuration conf) {
        this.cluster = cluster;
        this.conf = conf;
    }

    /** Starts a NameNode with {@code conf} and one DataNode per address, on the given racks. */
    public static LoopbackCluster start(Configuration conf, List<String> addresses, List<String> racks)
            throws IOException {
        conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DATANODE_REGISTRATION_IP_HOSTNAME_CHECK_KEY, false);
        MiniDFSCluster cluster =
                new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
        Configuration[] overlays = new Configuration[addresses.size()];
        for (int i = 0; i < overlays.length; i++) {
            String address = addresses.get(i);
            Configuration overlay = new Configuration(false);
            // MiniDFSCluster statically resolves each DataNode's host name (here its address) to localhost in this
            // JVM only: listening on every address lets other processes (YARN containers) reach it as 127.0.0.x.
            overlay.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, "0.0.0.0:0");
            overlay.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, "0.0.0.0:0");
            overlay.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, "0.0.0.0:0");
            bindClients(overlay, address);
            overlays[i] = overlay;
        }
        try {
            cluster.startDataNodes(
                    conf,
                    addresses.size(),
                    null,
                    true,
                    null,
                    racks.toArray(String[]::new),
                    addresses.toArray(String[]::new),
                    null,
                    null,
                    false,
                    true,
                    false,
                    overlays,
                    null,
                    null);
            cluster.waitActive();
            // MiniDFSCluster caps the replication it writes into conf at its DataNodes when built: none yet.
            conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, Math.min(3, addresses.size()));
        } catch (IOException | RuntimeException e) {
            cluster.shutdown();
            throw e;
        }
        return new LoopbackCluster(cluster, conf);
    }

    /** Makes every Hadoop client built from {@code conf} connect from {@code address}. */
    public static void bindClients(Configuration conf, String address) {
        conf.set(
                CommonConfigurationKeys.HADOOP_RPC_SOCKET_FACTORY_CLASS_DEFAULT_KEY,
                BoundSocketFactory.class.getName());
        conf.set(BoundSocketFactory.BIND, address);
    }

    public MiniDFSCluster cluster() {
        return cluster;
    }

    /** A new file system client connecting from {@code address} (127.0.0.1 is not a DataNode's). */
    public DistributedFileSystem clientFrom(String address) throws IOException {
        Configuration client = new HdfsConfiguration(conf);
        bindClients(client, address);
        URI uri = cluster.getURI();
        return (DistributedFileSystem) DistributedFileSystem.newInstance(uri, client);
    }

    @Override
    public void close() {
        cluster.shutdown();
    }
}
