package org.cloudtalk.itchy;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.JarFinder;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * One HBase mini cluster (with its own MiniDFSCluster and ZooKeeper) per test class, and a configuration that runs
 * MapReduce jobs with the LocalJobRunner against it; on request, a MiniMRYarnCluster over the same HDFS that runs
 * them as YARN applications.
 */
@SuppressWarnings("deprecation") // HBaseTestingUtility: its successor lives in hbase-testing-util, not published
public final class MiniClusters implements AutoCloseable {
    private final HBaseTestingUtility util;
    private MiniMRYarnCluster yarn;

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

    /**
     * Starts a MiniMRYarnCluster (ResourceManager, one NodeManager, job history server) over this HDFS and returns a
     * configuration for jobs that run on it. Its task containers get a cluster's classpath, not this JVM's: Hadoop's
     * jars only (the mini cluster would otherwise hand them every jar of the test), so HBase's jars and Itchy's
     * classes reach the tasks only as on a real cluster, through the job jar and {@code tmpjars}. Containers are
     * small (512 MB, 200 MB heap) so that four fit in 2 GB.
     */
    public Configuration startYarn() {
        if (yarn != null) {
            throw new IllegalStateException("YARN is already running");
        }
        Configuration conf = new Configuration(util.getConfiguration());
        conf.setInt(YarnConfiguration.NM_PMEM_MB, 2048);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
        // Heartbeats every 100 ms rather than 1 s: containers are granted and reported sooner.
        conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
        conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 100);
        MiniMRYarnCluster cluster = new MiniMRYarnCluster("itchy", 1);
        cluster.init(conf);
        cluster.start();
        yarn = cluster;

        Configuration job = new Configuration(cluster.getConfig());
        job.setInt("mapreduce.client.completion.pollinterval", 100);
        job.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
        job.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx256m -XX:+UseSerialGC");
        job.setInt(MRJobConfig.MAP_MEMORY_MB, 512);
        job.setInt(MRJobConfig.REDUCE_MEMORY_MB, 512);
        job.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx200m -XX:+UseSerialGC");
        job.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx200m -XX:+UseSerialGC");
        // A cluster's container classpath: Hadoop's jars, neither HBase's nor Itchy's.
        job.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false);
        // Split over the two keys a container's classpath is made of: MRApps reads both as lists and fails on an empty
        // one.
        List<String> hadoopJars = hadoopJars();
        int half = hadoopJars.size() / 2;
        job.setStrings(
                YarnConfiguration.YARN_APPLICATION_CLASSPATH,
                hadoopJars.subList(0, half).toArray(String[]::new));
        job.setStrings(
                MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH,
                hadoopJars.subList(half, hadoopJars.size()).toArray(String[]::new));
        // Itchy as a user deploys it: a jar (the build's classes directory, jarred), found as the job jar.
        job.set(MRJobConfig.JAR, JarFinder.getJar(ItchyJob.class));
        return job;
    }

    /** This JVM's classpath without HBase's jars and without class directories (Itchy's and the tests' classes). */
    private static List<String> hadoopJars() {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> jars = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            File file = new File(entry);
            // protobuf 2.5 too: Hadoop 3.4 has it as a provided dependency ("no longer in production"); HBase's
            // client needs it.
            if (file.isFile()
                    && entry.endsWith(".jar")
                    && !file.getName().startsWith("hbase-")
                    && !file.getName().startsWith("protobuf-java-2.")) {
                jars.add(file.getAbsolutePath());
            }
        }
        // A JVM started from a manifest-only jar lists that jar alone, and its manifest would bring HBase back.
        if (jars.stream().noneMatch(jar -> jar.contains("hadoop-mapreduce-client-app"))) {
            throw new IllegalStateException("the test classpath lists no MapReduce jars: " + classpath);
        }
        return jars;
    }

    /** The running MiniMRYarnCluster, after {@link #startYarn()}. */
    public MiniMRYarnCluster yarn() {
        if (yarn == null) {
            throw new IllegalStateException("YARN is not running: call startYarn() first");
        }
        return yarn;
    }

    public FileSystem fileSystem() throws Exception {
        return util.getDFSCluster().getFileSystem();
    }

    @Override
    public void close() throws java.io.IOException {
        if (yarn != null) {
            yarn.stop();
        }
        util.shutdownMiniCluster();
    }
}
