package org.cloudtalk.itchy;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;

/**
 * One HBase mini cluster (with its own MiniDFSCluster and ZooKeeper) per test class, and a configuration that runs
 * MapReduce jobs with the LocalJobRunner against it.
 */
@SuppressWarnings("deprecation") // HBaseTestingUtility: its successor lives in hbase-testing-util, not published
public final class MiniClusters implements AutoCloseable {
    private final HBaseTestingUtility util;

    private MiniClusters(HBaseTestingUtility util) {
        this.util = util;
    }

    public static MiniClusters start() throws Exception {
        Configuration conf = HBaseConfiguration.create();
        // The default asyncfs WAL hangs for minutes at shutdown on this JDK.
        conf.set("hbase.wal.provider", "filesystem");
        conf.setInt("hbase.regionserver.handler.count", 5);
        // HBase shares this JVM with the jobs: its defaults (40% of the heap for the block cache, 40% for memstores)
        // leave the jobs too little and the heap thrashes once a benchmark stores gigabytes.
        conf.setFloat("hfile.block.cache.size", 0.1f);
        conf.setFloat("hbase.regionserver.global.memstore.size", 0.25f);
        // Closing an HDFS file usually races the DataNode's report of its last block; the client then sleeps before
        // asking again, 400 ms by default, which was most of a short increment's wall time here. Retry sooner, with
        // more retries so that the total wait allowed (~12.8 s) stays what the defaults allow (~12.4 s).
        conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 25);
        conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 9);
        conf.setInt("hbase.master.info.port", -1);
        conf.setInt("hbase.regionserver.info.port", -1);
        HBaseTestingUtility util = new HBaseTestingUtility(conf);
        util.startMiniCluster(1);
        return new MiniClusters(util);
    }

    /** For jobs: HDFS of the mini cluster, HBase's ZooKeeper, the local job runner. */
    public Configuration jobConf() {
        Configuration conf = new Configuration(util.getConfiguration());
        conf.set("mapreduce.framework.name", "local");
        conf.setInt("mapreduce.client.completion.pollinterval", 100);
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
        return conf;
    }

    public FileSystem fileSystem() throws Exception {
        return util.getDFSCluster().getFileSystem();
    }

    @Override
    public void close() throws java.io.IOException {
        util.shutdownMiniCluster();
    }
}
