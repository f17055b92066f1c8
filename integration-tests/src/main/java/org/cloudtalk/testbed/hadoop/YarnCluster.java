package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.testbed.Directories;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.proc.Readiness;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * A real YARN (Hadoop 3.4.3) on the testbed, over an {@link HdfsCluster}: a ResourceManager in one host and a
 * NodeManager in each of the given hosts, each a JVM of its own in its host's namespace, bound to that host's testbed
 * address. Containers are the NodeManagers' child processes, so a reduce's shuffle crosses its host's shaped link.
 * Every process and directory is recorded in the testbed's state, so {@link #close} — or {@code testbed down} after a
 * crash — stops and removes exactly them. Jobs ({@link MapReduceJobs}) run from a client JVM in a host.
 *
 * <p>Containers get Hadoop's jars and the testbed's classes on their class path from the NodeManagers' own files (one
 * machine), so jobs need no job jar.
 *
 * <p>Concurrency: one thread starts and closes a cluster.
 */
public final class YarnCluster implements AutoCloseable {
    public static final int RESOURCE_MANAGER_HTTP_PORT = 8088;
    /** Per NodeManager: room for a few 256 MiB tasks and an application master. */
    static final int NODE_MEMORY_MB = 1536;

    static final String RESOURCE_MANAGER_HEAP = "384m";
    static final String NODE_MANAGER_HEAP = "192m";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final String RESOURCE_MANAGER_MAIN = "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager";
    private static final String NODE_MANAGER_MAIN = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Testbed testbed;
    private final HdfsCluster hdfs;
    private final Host resourceManagerHost;
    private final List<Host> nodeHosts;
    private final HadoopClasspath classpath;
    private final Path directory;
    private final List<StartedProcess> daemons = new ArrayList<>();
    private final List<Path> taskDirectories = new ArrayList<>();
    private final NameNodeJmx jmx;

    private YarnCluster(
            Testbed testbed,
            HdfsCluster hdfs,
            Host resourceManagerHost,
            List<Host> nodeHosts,
            HadoopClasspath classpath) {
        this.testbed = testbed;
        this.hdfs = hdfs;
        this.resourceManagerHost = resourceManagerHost;
        this.nodeHosts = List.copyOf(nodeHosts);
        this.classpath = classpath;
        this.directory = testbed.runDir().resolve("yarn");
        this.jmx = new NameNodeJmx(
                URI.create("http://" + resourceManagerHost.managementAddress() + ":" + RESOURCE_MANAGER_HTTP_PORT));
    }

    /**
     * Starts a ResourceManager in {@code resourceManagerHost} and a NodeManager in each of {@code nodeHosts}, using
     * {@code hdfs} as the default file system, and waits until every NodeManager runs; on any failure removes what it
     * started and throws with the failing daemon's log.
     */
    public static YarnCluster start(
            Testbed testbed, HdfsCluster hdfs, Host resourceManagerHost, List<Host> nodeHosts, YarnSettings settings) {
        requireNonNull(settings, "settings is null");
        if (nodeHosts.isEmpty() || new HashSet<>(nodeHosts).size() != nodeHosts.size()) {
            throw new TestbedException("a YARN cluster needs distinct NodeManager hosts: "
                    + nodeHosts.stream().map(Host::index).toList());
        }
        YarnCluster cluster =
                new YarnCluster(testbed, hdfs, resourceManagerHost, nodeHosts, HadoopClasspath.ofThisBuild());
        if (Files.exists(cluster.directory)) {
            throw new TestbedException("a YARN cluster is already recorded in " + cluster.directory
                    + ": close it (or run `testbed down`) first");
        }
        try {
            cluster.startDaemons(settings);
            cluster.awaitReady(READY_TIMEOUT);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Where the ResourceManager runs (the testbed's experiments also run their job clients there). */
    public Host resourceManagerHost() {
        return resourceManagerHost;
    }

    public List<Host> nodeHosts() {
        return nodeHosts;
    }

    /** The ResourceManager's {@code /jmx} (e.g. the CloudTalk plugin's {@code CloudTalkYarnPlacement} bean). */
    public NameNodeJmx jmx() {
        return jmx;
    }

    /**
     * The settings a job client in the testbed needs (fs, ResourceManager, MapReduce on YARN, the containers' class
     * path and sizes), for a mapred-site.xml or a job's configuration.
     */
    Map<String, String> clientSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("fs.defaultFS", hdfs.uri().toString());
        settings.put("yarn.resourcemanager.hostname", resourceManagerHost.address());
        settings.put("mapreduce.framework.name", "yarn");
        settings.put("yarn.app.mapreduce.am.staging-dir", "/tmp/staging");
        settings.put("mapreduce.application.classpath", jobClasspath());
        settings.put("yarn.app.mapreduce.am.resource.mb", "384");
        settings.put("yarn.app.mapreduce.am.command-opts", "-Xmx256m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true");
        settings.put("mapreduce.map.memory.mb", "256");
        settings.put("mapreduce.reduce.memory.mb", "256");
        // Tasks live seconds on a 2-core machine shared by every host: the C1 compiler alone spares the CPU that
        // C2's compilations would take from the emulator (the testbed's daemons run the same way).
        String taskOpts = "-Xmx160m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true";
        settings.put("mapreduce.map.java.opts", taskOpts);
        settings.put("mapreduce.reduce.java.opts", taskOpts);
        // A task's sort buffer must fit its 160 MiB heap (the default, 100 MiB, does not with the rest).
        settings.put("mapreduce.task.io.sort.mb", "32");
        settings.put("mapreduce.job.emit-timeline-data", "false");
        return settings;
    }

    /**
     * Runs {@code job} ({@link MapReduceJobs#generate}, {@link MapReduceJobs#sort}) from a client in {@code client}
     * with {@code jobSettings} added to the job's configuration, and waits up to {@code timeout} for it.
     */
    public MapReduceJobs.Outcome run(Host client, Duration timeout, Map<String, String> jobSettings, List<String> job) {
        return MapReduceJobs.run(testbed, this, client, directory.resolve("clients"), timeout, jobSettings, job);
    }

    /** Hadoop, the testbed's job classes and the CloudTalk job plugin (a job that does not name it never loads it). */
    String jobClasspath() {
        return String.join(File.pathSeparator, classpath.hadoop(), classpath.jobPlugin(), classpath.testbedClasses());
    }

    /** The NodeManager's local directory on its host's own disk, when the testbed gave it one. */
    private Optional<Path> taskDataDirectory(Host host) {
        Optional<Path> onDisk = Disks.directoryOnHostDisk(testbed.state(), host, "yarn-local");
        onDisk.ifPresent(taskDirectories::add);
        return onDisk;
    }

    private static String javaHome() {
        return System.getProperty("java.home");
    }

    private void startDaemons(YarnSettings settings) {
        testbed.state().addDirectory(directory);
        try {
            Path webapps = directory.resolve("webapps-root");
            for (String app : List.of("cluster", "node", "yarn", "static", "proxy", "applicationhistory", "ui2")) {
                Files.createDirectories(webapps.resolve("webapps").resolve(app));
            }
            Map<String, String> common = commonSettings(settings);
            Path resourceManagerConf = confDirectory("resourcemanager", common, Map.of());
            HadoopConf.write(resourceManagerConf.resolve("capacity-scheduler.xml"), schedulerSettings(settings));
            List<String> entries = new ArrayList<>(List.of(resourceManagerConf.toString(), webapps.toString()));
            if (settings.placement() == YarnPlacement.CLOUDTALK) {
                // As an operator installs it: the shaded jar on the ResourceManager's class path, nowhere else.
                entries.add(classpath.resourceManagerPlugin());
            }
            entries.add(classpath.hadoop());
            daemons.add(startJava(
                    resourceManagerHost,
                    "resourcemanager",
                    RESOURCE_MANAGER_HEAP,
                    String.join(File.pathSeparator, entries),
                    RESOURCE_MANAGER_MAIN));
            for (Host host : nodeHosts) {
                Path local = Files.createDirectories(directory.resolve("nodemanager-" + host.index()));
                // Tasks spill and reduces merge on the host's own disk when it has one, as on a real node.
                Path taskData = taskDataDirectory(host).orElse(local.resolve("local"));
                Path conf = confDirectory(
                        "nodemanager-" + host.index(),
                        common,
                        Map.of(
                                "yarn.nodemanager.hostname", host.address(),
                                "yarn.nodemanager.address", host.address() + ":8041",
                                "yarn.nodemanager.webapp.address", host.address() + ":8042",
                                "yarn.nodemanager.local-dirs", taskData.toString(),
                                "yarn.nodemanager.log-dirs",
                                        local.resolve("logs").toString()));
                daemons.add(startJava(
                        host,
                        "nodemanager-" + host.index(),
                        NODE_MANAGER_HEAP,
                        String.join(File.pathSeparator, conf.toString(), webapps.toString(), classpath.hadoop()),
                        NODE_MANAGER_MAIN));
            }
        } catch (IOException e) {
            throw new TestbedException(
                    "cannot write the YARN configuration under " + directory + ": " + e.getMessage(), e);
        }
    }

    private Map<String, String> commonSettings(YarnSettings settings) {
        Map<String, String> common = new LinkedHashMap<>(clientSettings());
        // Also on the management address, for the testbed's /jmx reads.
        common.put("yarn.resourcemanager.bind-host", "0.0.0.0");
        // Not the machine's shared /tmp/hadoop-$USER: testbeds side by side, and down removes it.
        common.put("hadoop.tmp.dir", directory.resolve("tmp").toString());
        common.put("yarn.nodemanager.resource.memory-mb", Integer.toString(NODE_MEMORY_MB));
        common.put("yarn.nodemanager.resource.cpu-vcores", "4");
        common.put("yarn.scheduler.minimum-allocation-mb", "128");
        common.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(NODE_MEMORY_MB));
        common.put("yarn.nodemanager.aux-services", "mapreduce_shuffle");
        common.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
        common.put("yarn.application.classpath", jobClasspath());
        // Every container's JAVA_HOME (set once: YARN joins a variable set twice with ':').
        common.put("yarn.nodemanager.admin-env", "JAVA_HOME=" + javaHome());
        // Tasks are sized by their -Xmx; the emulated hosts share one machine's memory and disk.
        common.put("yarn.nodemanager.vmem-check-enabled", "false");
        common.put("yarn.nodemanager.pmem-check-enabled", "false");
        common.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.9");
        common.put("yarn.log-aggregation-enable", "false");
        common.put("yarn.timeline-service.enabled", "false");
        settings.cloudTalkServer().ifPresent(server -> common.put("cloudtalk.server.uri", server.toString()));
        common.putAll(settings.overrides());
        return common;
    }

    private static Map<String, String> schedulerSettings(YarnSettings settings) {
        Map<String, String> scheduler = new LinkedHashMap<>();
        scheduler.put("yarn.scheduler.capacity.root.queues", "default");
        scheduler.put("yarn.scheduler.capacity.root.default.capacity", "100");
        scheduler.put("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
        // A small cluster runs one job's application master beside its tasks.
        scheduler.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        scheduler.putAll(settings.placement().schedulerSettings());
        return scheduler;
    }

    private Path confDirectory(String role, Map<String, String> common, Map<String, String> own) throws IOException {
        Map<String, String> yarn = new LinkedHashMap<>(common);
        yarn.putAll(own);
        return HadoopDaemons.writeConf(directory.resolve(role), "yarn-site.xml", yarn);
    }

    private StartedProcess startJava(Host host, String role, String heap, String javaClasspath, String mainClass) {
        return HadoopDaemons.startJava(testbed, host, role, heap, javaClasspath, mainClass, List.of());
    }

    /** Waits until every NodeManager runs, registered with its testbed address. */
    private void awaitReady(Duration timeout) {
        Set<String> expected = new HashSet<>();
        nodeHosts.forEach(h -> expected.add(h.address()));
        Readiness.await(testbed, "YARN", daemons, timeout, "/jmx", () -> {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(runningNodes());
            return missing.isEmpty() ? Optional.empty() : Optional.of("NodeManagers not yet running: " + missing);
        });
    }

    /** The hosts of the NodeManagers the ResourceManager counts as running. */
    Set<String> runningNodes() throws IOException {
        String live = jmx.text("Hadoop:service=ResourceManager,name=RMNMInfo", "LiveNodeManagers");
        Set<String> running = new HashSet<>();
        if (live.isEmpty()) {
            return running;
        }
        for (JsonNode node : JSON.readTree(live)) {
            if ("RUNNING".equals(node.path("State").asText())) {
                running.add(node.path("HostName").asText());
            }
        }
        return running;
    }

    /** Stops the NodeManagers (and so their containers), then the ResourceManager, and deletes every directory. */
    @Override
    public void close() {
        List<StartedProcess> stopOrder = new ArrayList<>(daemons);
        Collections.reverse(stopOrder);
        stopOrder.forEach(testbed.processes()::stop);
        daemons.clear();
        for (Path data : taskDirectories) {
            Directories.deleteRecursively(data);
            testbed.state().removeDirectory(data);
        }
        taskDirectories.clear();
        Directories.deleteRecursively(directory);
        testbed.state().removeDirectory(directory);
    }
}
