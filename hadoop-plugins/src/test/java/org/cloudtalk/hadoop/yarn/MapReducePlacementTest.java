package org.cloudtalk.hadoop.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacitySchedulerConfiguration;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.mapreduce.CloudTalkInputFormat;
import org.cloudtalk.hadoop.mapreduce.MapHintSettings;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.cloudtalk.hadoop.testing.LoopbackCluster;
import org.cloudtalk.hadoop.testing.LoopbackYarn;
import org.cloudtalk.hadoop.testing.MisbehavingServer;
import org.cloudtalk.hadoop.testing.PluginFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The YARN and MapReduce plugins in a real cluster: HDFS and YARN with a DataNode and a NodeManager on each of six
 * loopback hosts, the ResourceManager ordering nodes with {@link CloudTalkNodeLookupPolicy}, jobs reading through
 * {@link CloudTalkInputFormat}, and a real CloudTalk server whose hosts' load the test sets.
 */
class MapReducePlacementTest {
    private static final List<String> HOSTS =
            List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7");
    private static final String POLICY = "cloudtalk";
    private static final AtomicInteger JOBS = new AtomicInteger();

    private static Path dir;
    private static Path yarnSite;
    private static ControlledCloudTalk cloudTalk;
    private static LoopbackCluster dfs;
    private static LoopbackYarn yarn;
    private static DistributedFileSystem fs;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("cloudtalk-yarn");
        cloudTalk = ControlledCloudTalk.start(dir, PluginFixture.withClient(new TreeSet<>(HOSTS)));
        writeResourceManagerSite();
        assertThat(new org.apache.hadoop.yarn.conf.YarnConfiguration().get(HintSettings.SERVER_URI))
                .as("the policy's keys, read from yarn-site.xml on the class path")
                .isEqualTo(cloudTalk.uri());
        Configuration conf = new HdfsConfiguration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
        conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, PluginFixture.BLOCK);
        dfs = LoopbackCluster.start(conf, HOSTS, Collections.nCopies(HOSTS.size(), "/default-rack"));
        Configuration yarnConf = new Configuration(conf);
        yarnConf.set("fs.defaultFS", dfs.cluster().getURI().toString());
        // The ResourceManager's node attribute store, on the default (HDFS) file system, asks for replication 0.
        yarnConf.set(
                "yarn.node-attribute.fs-store.root-dir",
                dir.resolve("node-attributes").toUri().toString());
        yarnConf.set(MRJobConfig.MR_AM_STAGING_DIR, "/staging");
        yarnConf.setBoolean(CapacitySchedulerConfiguration.MULTI_NODE_PLACEMENT_ENABLED, true);
        yarnConf.set(CapacitySchedulerConfiguration.MULTI_NODE_SORTING_POLICIES, POLICY);
        yarnConf.set(CapacitySchedulerConfiguration.MULTI_NODE_SORTING_POLICY_NAME, POLICY);
        yarnConf.set(
                CapacitySchedulerConfiguration.MULTI_NODE_SORTING_POLICY_NAME + "." + POLICY + ".class",
                CloudTalkNodeLookupPolicy.class.getName());
        yarnConf.setLong(
                CapacitySchedulerConfiguration.MULTI_NODE_SORTING_POLICY_NAME + "." + POLICY + ".sorting-interval.ms",
                100);
        yarnConf.setInt("yarn.scheduler.minimum-allocation-mb", 128);
        yarn = LoopbackYarn.start(yarnConf, HOSTS, dir.resolve("yarn"));
        fs = dfs.clientFrom(PluginFixture.CLIENT);
    }

    /**
     * The ResourceManager builds the policy without a configuration: its keys come from yarn-site.xml. No earlier
     * answer outlives a failed query, so the jobs run with the server down or lying are placed by the fallback's own
     * order (CloudTalkNodeLookupPolicyTest shows the stale window).
     */
    private static void writeResourceManagerSite() throws IOException {
        Path classes = Path.of(System.getProperty("cloudtalk.test.site", "target/test-classes"));
        Files.createDirectories(classes);
        yarnSite = classes.resolve("yarn-site.xml");
        Files.writeString(
                yarnSite,
                "<configuration>\n"
                        + property(HintSettings.SERVER_URI, cloudTalk.uri())
                        + property(HintSettings.DEADLINE_MS, Long.toString(PluginFixture.DEADLINE_MS))
                        + property(HintSettings.BACKOFF_MS, "0")
                        + property(YarnHintSettings.REFRESH_MS, "0")
                        + property(YarnHintSettings.STALE_MS, "0")
                        + "</configuration>\n",
                StandardCharsets.UTF_8);
    }

    private static String property(String name, String value) {
        return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
    }

    @AfterAll
    static void stop() throws Exception {
        if (fs != null) {
            fs.close();
        }
        if (yarn != null) {
            yarn.close();
        }
        if (dfs != null) {
            dfs.close();
        }
        if (cloudTalk != null) {
            cloudTalk.close();
        }
        if (yarnSite != null) {
            Files.deleteIfExists(yarnSite);
        }
        FileUtil.fullyDelete(dir.toFile());
    }

    @BeforeEach
    void reset() throws Exception {
        cloudTalk.stopServer();
        cloudTalk.startServer();
        cloudTalk.load(PluginFixture.withClient(new TreeSet<>(HOSTS)), Set.of());
    }

    @Test
    void reducesLandOnTheHostsWhoseReceiveLinksAreIdle() throws Exception {
        // The busy hosts sort first by node name, so the stock order (least allocated, then name) would use them.
        Set<String> busy = Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4");
        loadAndAwaitOrder(busy, Set.of());

        Job job = wordCount(input(4, (short) 3), TextInputFormat.class, 3);

        assertSucceeds(job);
        assertThat(hosts(job, false)).hasSize(3).doesNotContainAnyElementsOf(busy);
    }

    @Test
    void mapsAvoidTheHostsWithSlowDisks() throws Exception {
        // Only their disks' reads are busy: the ResourceManager's reduce order has no reason to avoid them, the input
        // format has.
        Set<String> slow = Set.of("127.0.0.2", "127.0.0.3");
        loadAndAwaitOrder(Set.of(), slow);
        HintMetrics maps = mapMetrics();
        long used = maps.answersUsed();
        long asAnswered = maps.choicesAsAnswered();

        // Three replicas on six hosts, two of them slow: every split keeps a fast location.
        Job job = wordCount(input(8, (short) 3), CloudTalkInputFormat.class, 1);
        List<InputSplit> splits = new CloudTalkInputFormat().getSplits(job);

        assertSucceeds(job);
        assertThat(maps.answersUsed())
                .as("answers used by the input format (the test's splits and the job's)")
                .isEqualTo(used + 2);
        assertThat(maps.choicesAsAnswered())
                .as("splits that lost a slow location")
                .isGreaterThan(asAnswered);
        assertThat(splits).hasSize(8);
        for (InputSplit split : splits) {
            assertThat(split.getLocations())
                    .as("locations of %s", split)
                    .isNotEmpty()
                    .doesNotContainAnyElementsOf(slow);
        }
        // The scheduler still relaxes a map to any host of the rack after as many missed opportunities as there are
        // nodes (CapacityScheduler caps the node-locality delay at the cluster size), so a map may run on a slow host,
        // but never as a data-local map: only a relaxed map can.
        List<String> onSlowHosts =
                hosts(job, true).stream().filter(slow::contains).toList();
        Counters counters = job.getCounters();
        long relaxed = counters.findCounter(JobCounter.RACK_LOCAL_MAPS).getValue()
                + counters.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue();
        assertThat(hosts(job, true)).hasSize(8);
        assertThat((long) onSlowHosts.size())
                .as("maps on slow hosts %s, at most the %d maps that were not data-local", onSlowHosts, relaxed)
                .isLessThanOrEqualTo(relaxed);
    }

    @Test
    void jobsSucceedWithTheServerDown() throws Exception {
        HintMetrics order = policyMetrics();
        HintMetrics maps = mapMetrics();
        long orderFallbacks = order.fallbacks(Fallback.UNAVAILABLE);
        long mapFallbacks = maps.fallbacks(Fallback.UNAVAILABLE);
        cloudTalk.stopServer();

        Job job = wordCount(input(4, (short) 2), CloudTalkInputFormat.class, 2);

        assertSucceeds(job);
        assertThat(order.fallbacks(Fallback.UNAVAILABLE)).isGreaterThan(orderFallbacks);
        assertThat(maps.fallbacks(Fallback.UNAVAILABLE)).isEqualTo(mapFallbacks + 1);
        assertThat(hosts(job, true)).hasSize(4);
    }

    @Test
    void jobsSucceedWithAServerThatLies() throws Exception {
        HintMetrics order = policyMetrics();
        HintMetrics maps = mapMetrics();
        long orderBad = order.fallbacks(Fallback.BAD_ANSWER);
        long mapBad = maps.fallbacks(Fallback.BAD_ANSWER);
        cloudTalk.stopServer();
        String lie = "{\"bindings\": {\"x1\": \"10.9.9.9\", \"X\": \"10.9.9.9\"}, \"evaluator\": \"heuristic\","
                + " \"explain\": {\"X\": {\"10.9.9.9\": 1.0}}}";
        try (MisbehavingServer liar = MisbehavingServer.answering(cloudTalk.port(), lie)) {
            Job job = wordCount(input(4, (short) 2), CloudTalkInputFormat.class, 2);

            assertSucceeds(job);
            assertThat(hosts(job, true)).hasSize(4);
        }
        assertThat(order.fallbacks(Fallback.BAD_ANSWER)).isGreaterThan(orderBad);
        assertThat(maps.fallbacks(Fallback.BAD_ANSWER)).isEqualTo(mapBad + 1);
    }

    /** Runs the job, failing with the ResourceManager's view of it if it does not finish within three minutes. */
    private static void assertSucceeds(Job job) throws Exception {
        job.submit();
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!job.isComplete()) {
            if (System.nanoTime() > deadline) {
                StringBuilder state = new StringBuilder();
                yarn.resourceManager().getRMContext().getRMApps().values().forEach(app -> state.append(
                                app.getApplicationId())
                        .append(' ')
                        .append(app.getState())
                        .append(' ')
                        .append(app.getDiagnostics())
                        .append('\n'));
                yarn.resourceManager().getRMContext().getRMNodes().values().forEach(node -> state.append(
                                node.getNodeID())
                        .append(' ')
                        .append(node.getState())
                        .append('\n'));
                job.killJob();
                throw new AssertionError("job " + job.getJobID() + " did not finish in 3 minutes:\n" + state);
            }
            Thread.sleep(200);
        }
        assertThat(job.isSuccessful()).as("job %s succeeded", job.getJobID()).isTrue();
    }

    /** Sets the load and waits until the ResourceManager has ordered nodes by it (two answers after the change). */
    private static void loadAndAwaitOrder(Set<String> busy, Set<String> busyReads) throws InterruptedException {
        Set<String> idle = new TreeSet<>(PluginFixture.withClient(new TreeSet<>(HOSTS)));
        idle.removeAll(busy);
        idle.removeAll(busyReads);
        cloudTalk.load(idle, busy, busyReads);
        HintMetrics order = policyMetrics();
        long target = order.answersUsed() + 2;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (order.answersUsed() < target) {
            assertThat(System.nanoTime()).as("the policy answered within 30 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static HintMetrics policyMetrics() {
        CloudTalkNodeLookupPolicy<?> policy = (CloudTalkNodeLookupPolicy<?>) yarn.resourceManager()
                .getRMContext()
                .getMultiNodeSortingManager()
                .getMultiNodePolicy(CloudTalkNodeLookupPolicy.class.getName())
                .getMultiNodeLookupPolicy();
        return policy.metrics();
    }

    private static HintMetrics mapMetrics() {
        Configuration conf = jobConf();
        return org.cloudtalk.hadoop.hint.HintClient.shared(
                        "mapreduce",
                        MapHintSettings.from(conf).hints(),
                        "CloudTalkMapPlacement",
                        "CloudTalk split locations for map tasks")
                .metrics();
    }

    private static Configuration jobConf() {
        Configuration conf = new Configuration(yarn.config());
        conf.set(HintSettings.SERVER_URI, cloudTalk.uri());
        conf.setLong(HintSettings.DEADLINE_MS, PluginFixture.DEADLINE_MS);
        conf.setLong(HintSettings.BACKOFF_MS, 0);
        conf.setInt(MRJobConfig.MAP_MEMORY_MB, 256);
        conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 256);
        conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx160m");
        conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx160m");
        conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 384);
        conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx256m");
        // Reduces start once every map is done: their placement is the policy's, not a race with the maps.
        conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
        conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
        conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
        conf.setLong("mapreduce.client.completion.pollinterval", 200);
        return conf;
    }

    /** {@code files} one-block text files, written from the client host (no DataNode's). */
    private static org.apache.hadoop.fs.Path input(int files, short replication) throws IOException {
        org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path("/input-" + JOBS.incrementAndGet());
        byte[] line = "the quick brown fox jumps over the lazy dog\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < files; i++) {
            try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(input, "part-" + i), replication)) {
                for (int written = 0; written + line.length <= PluginFixture.BLOCK / 2; written += line.length) {
                    out.write(line);
                }
            }
        }
        return input;
    }

    private static Job wordCount(
            org.apache.hadoop.fs.Path input,
            Class<? extends org.apache.hadoop.mapreduce.InputFormat> format,
            int reduces)
            throws IOException {
        Job job = Job.getInstance(jobConf(), "cloudtalk-" + input.getName());
        job.setInputFormatClass(format);
        job.setMapperClass(TokenCounterMapper.class);
        job.setCombinerClass(IntSumReducer.class);
        job.setReducerClass(IntSumReducer.class);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(IntWritable.class);
        job.setNumReduceTasks(reduces);
        FileInputFormat.addInputPath(job, input);
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(input.getName() + "-out"));
        return job;
    }

    /** The hosts where the job's successful map (or reduce) attempts ran, one entry per attempt. */
    private static List<String> hosts(Job job, boolean maps) throws IOException, InterruptedException {
        List<String> hosts = new ArrayList<>();
        for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
            if (event.isMapTask() == maps && event.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
                hosts.add(URI.create(event.getTaskTrackerHttp()).getHost());
            }
        }
        return hosts;
    }
}
