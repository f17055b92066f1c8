package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.testbed.Directories;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.proc.Readiness;
import org.cloudtalk.testbed.state.StartedProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HDFS (Hadoop 3.4.3) on the testbed: a NameNode in one host and a DataNode in each of the given hosts, each a
 * JVM of its own started inside its host's namespace and bound to that host's testbed address, so that every block
 * a client writes crosses the shaped access links. Every process is recorded in the testbed's state file and every
 * directory too (configuration, metadata, block data: on the host's throttled disk when the testbed gave it one), so
 * {@link #close} — or {@code testbed down} after a crash — stops and removes exactly them.
 *
 * <p>Ports are Hadoop's defaults: each host is a namespace of its own, so they collide with nothing on the machine.
 * The NameNode's web server also listens on its host's management address, where the testbed (root namespace) reads
 * its {@code /jmx} without loading the measured links.
 *
 * <p>Concurrency: one thread starts and closes a cluster; {@link #startWriter} may be called from several.
 */
public final class HdfsCluster implements AutoCloseable {
    public static final int NAMENODE_RPC_PORT = 8020;
    public static final int NAMENODE_HTTP_PORT = 9870;
    static final String NAMENODE_HEAP = "512m";
    static final String DATANODE_HEAP = "256m";
    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final String NAMENODE_MAIN = "org.apache.hadoop.hdfs.server.namenode.NameNode";
    private static final String DATANODE_MAIN = "org.apache.hadoop.hdfs.server.datanode.DataNode";
    private static final Logger LOG = LoggerFactory.getLogger(HdfsCluster.class);

    private final Testbed testbed;
    private final Host nameNodeHost;
    private final List<Host> dataNodeHosts;
    private final HadoopClasspath classpath;
    private final Path directory;
    private final List<Path> dataDirectories = new ArrayList<>();
    private final List<StartedProcess> daemons = new ArrayList<>();
    private final NameNodeJmx jmx;

    private HdfsCluster(Testbed testbed, Host nameNodeHost, List<Host> dataNodeHosts, HadoopClasspath classpath) {
        this.testbed = testbed;
        this.nameNodeHost = nameNodeHost;
        this.dataNodeHosts = List.copyOf(dataNodeHosts);
        this.classpath = classpath;
        this.directory = testbed.runDir().resolve("hdfs");
        this.jmx = new NameNodeJmx(URI.create("http://" + nameNodeHost.managementAddress() + ":" + NAMENODE_HTTP_PORT));
    }

    /**
     * Formats and starts a NameNode in {@code nameNodeHost} and a DataNode in each of {@code dataNodeHosts}, and waits
     * until every DataNode has registered with its testbed address and reported space; on any failure removes what
     * it started and throws with the failing daemon's log.
     */
    public static HdfsCluster start(
            Testbed testbed, Host nameNodeHost, List<Host> dataNodeHosts, HdfsSettings settings) {
        requireNonNull(settings, "settings is null");
        if (dataNodeHosts.isEmpty()) {
            throw new TestbedException("an HDFS cluster needs at least one DataNode host");
        }
        if (new HashSet<>(dataNodeHosts).size() != dataNodeHosts.size()) {
            throw new TestbedException("a host can run one DataNode: "
                    + dataNodeHosts.stream().map(Host::index).toList());
        }
        HdfsCluster cluster = new HdfsCluster(testbed, nameNodeHost, dataNodeHosts, HadoopClasspath.ofThisBuild());
        if (Files.exists(cluster.directory)) {
            throw new TestbedException("an HDFS cluster is already recorded in " + cluster.directory
                    + ": close it (or run `testbed down`) first");
        }
        try {
            long start = System.nanoTime();
            cluster.startDaemons(settings);
            cluster.awaitReady(READY_TIMEOUT);
            LOG.info(
                    "HDFS up in {} s ({}): NameNode in {}, {} DataNodes",
                    String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9),
                    settings.placement().label(),
                    nameNodeHost.namespace(),
                    dataNodeHosts.size());
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The file system's URI, as clients in the testbed's hosts reach it. */
    public URI uri() {
        return URI.create("hdfs://" + nameNodeHost.address() + ":" + NAMENODE_RPC_PORT);
    }

    /** The NameNode's {@code /jmx}, read over the management link. */
    public NameNodeJmx jmx() {
        return jmx;
    }

    /** Starts an {@link HdfsWriterMain} in {@code client} that writes the files {@code job} describes. */
    public HdfsClient<FileWrite> startWriter(Host client, WriteJob job) {
        return HdfsClient.start(
                testbed,
                classpath,
                client,
                "hdfs-writer-" + client.index() + "-" + job.name(),
                HdfsWriterMain.class,
                List.of(
                        "--namenode", uri().toString(),
                        "--dir", "/writes/" + job.name(),
                        "--files", Integer.toString(job.files()),
                        "--bytes", Long.toString(job.bytes()),
                        "--replication", Integer.toString(job.replication()),
                        "--min-pause-ms", Long.toString(job.minPause().toMillis()),
                        "--max-pause-ms", Long.toString(job.maxPause().toMillis()),
                        "--seed", Long.toString(job.seed())),
                directory.resolve("writers"),
                FileWrite::fromCsv);
    }

    /** Starts an {@link HdfsReaderMain} in {@code client} that reads the files {@code job} describes. */
    public HdfsClient<FileRead> startReader(Host client, ReadJob job) {
        String role = "hdfs-reader-" + client.index() + "-" + job.name();
        Path out = directory.resolve("readers");
        Path paths = out.resolve(role + ".paths");
        try {
            Files.createDirectories(out);
            Files.write(paths, job.paths());
        } catch (IOException e) {
            throw new TestbedException("cannot write " + paths + ": " + e.getMessage(), e);
        }
        return HdfsClient.start(
                testbed,
                classpath,
                client,
                role,
                HdfsReaderMain.class,
                List.of(
                        "--namenode", uri().toString(),
                        "--name", job.name(),
                        "--paths", paths.toString(),
                        "--warm-up", job.warmUp(),
                        "--reads", Integer.toString(job.reads()),
                        "--min-pause-ms", Long.toString(job.minPause().toMillis()),
                        "--max-pause-ms", Long.toString(job.maxPause().toMillis()),
                        "--seed", Long.toString(job.seed())),
                out,
                FileRead::fromCsv);
    }

    private void startDaemons(HdfsSettings settings) {
        testbed.state().addDirectory(directory);
        try {
            // Hadoop's web servers look their webapps up on the class path; the Maven jars ship them only in the
            // -tests jar. Empty ones are enough: the testbed reads /jmx, a servlet of its own.
            Path webapps = directory.resolve("webapps-root");
            for (String app : List.of("hdfs", "datanode", "static", "secondary", "journal")) {
                Files.createDirectories(webapps.resolve("webapps").resolve(app));
            }
            Map<String, String> common = commonSettings(settings);
            Path nameNodeConf = confDirectory("namenode", common, Map.of());
            List<String> nameNodeEntries = new ArrayList<>(List.of(nameNodeConf.toString(), webapps.toString()));
            if (settings.placement() == HdfsPlacement.CLOUDTALK) {
                // As an operator installs it: the shaded jar on the NameNode's class path, nowhere else.
                nameNodeEntries.add(classpath.nameNodePlugin());
            }
            nameNodeEntries.add(classpath.hadoop());
            String nameNodeClasspath = String.join(java.io.File.pathSeparator, nameNodeEntries);
            format(nameNodeClasspath);
            daemons.add(
                    startJava(nameNodeHost, "namenode", NAMENODE_HEAP, nameNodeClasspath, NAMENODE_MAIN, List.of()));
            for (Host host : dataNodeHosts) {
                Path data = dataDirectory(host);
                Path conf = confDirectory(
                        "datanode-" + host.index(),
                        common,
                        Map.of(
                                "dfs.datanode.hostname", host.address(),
                                "dfs.datanode.address", host.address() + ":9866",
                                "dfs.datanode.ipc.address", host.address() + ":9867",
                                "dfs.datanode.http.address", host.address() + ":9864",
                                "dfs.datanode.data.dir", data.toUri().toString()));
                String dataNodeClasspath = String.join(
                        java.io.File.pathSeparator, conf.toString(), webapps.toString(), classpath.hadoop());
                daemons.add(startJava(
                        host, "datanode-" + host.index(), DATANODE_HEAP, dataNodeClasspath, DATANODE_MAIN, List.of()));
            }
        } catch (IOException e) {
            throw new TestbedException(
                    "cannot write the HDFS configuration under " + directory + ": " + e.getMessage(), e);
        }
    }

    private Map<String, String> commonSettings(HdfsSettings settings) {
        String nameNode = nameNodeHost.address();
        Map<String, String> common = new LinkedHashMap<>();
        common.put("fs.defaultFS", uri().toString());
        common.put("dfs.namenode.rpc-address", nameNode + ":" + NAMENODE_RPC_PORT);
        common.put("dfs.namenode.http-address", nameNode + ":" + NAMENODE_HTTP_PORT);
        // Also on the management address, for the testbed's /jmx reads.
        common.put("dfs.namenode.http-bind-host", "0.0.0.0");
        common.put(
                "dfs.namenode.name.dir",
                directory.resolve("namenode/name").toUri().toString());
        common.put("hadoop.tmp.dir", directory.resolve("tmp").toString());
        // The NameNode takes a DataNode's address from its registration RPC's source (its testbed address); reverse
        // DNS of testbed addresses resolves to nothing inside the namespaces, so the name check would refuse them.
        common.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
        common.put("dfs.namenode.safemode.extension", "0");
        common.putAll(settings.placement().settings());
        settings.cloudTalkServer().ifPresent(server -> common.put("cloudtalk.server.uri", server.toString()));
        common.putAll(settings.overrides());
        return common;
    }

    private Path confDirectory(String role, Map<String, String> common, Map<String, String> own) throws IOException {
        Map<String, String> hdfs = new LinkedHashMap<>(common);
        hdfs.putAll(own);
        return HadoopDaemons.writeConf(directory.resolve(role), "hdfs-site.xml", hdfs);
    }

    /** On the host's own disk when the testbed gave it one (recorded for removal), else under the cluster's directory. */
    private Path dataDirectory(Host host) throws IOException {
        Optional<Path> onDisk = Disks.directoryOnHostDisk(testbed.state(), host, "hdfs-data");
        if (onDisk.isPresent()) {
            dataDirectories.add(onDisk.get());
            return onDisk.get();
        }
        return Files.createDirectories(
                directory.resolve("datanode-" + host.index()).resolve("data"));
    }

    private void format(String nameNodeClasspath) {
        StartedProcess format = startJava(
                nameNodeHost,
                "namenode-format",
                NAMENODE_HEAP,
                nameNodeClasspath,
                NAMENODE_MAIN,
                List.of("-format", "-nonInteractive", "-force"));
        try {
            ProcessHandle handle = format.handle()
                    .orElseThrow(() -> new TestbedException("the NameNode format exited at once: " + format.logTail()));
            handle.onExit().get(FORMAT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TestbedException("the NameNode format did not finish within " + FORMAT_TIMEOUT.toSeconds()
                    + " s: " + format.logTail());
        } catch (java.util.concurrent.ExecutionException e) {
            throw new TestbedException("cannot wait for the NameNode format: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        } finally {
            testbed.processes().stop(format);
        }
        if (!Files.isDirectory(directory.resolve("namenode/name/current"))) {
            throw new TestbedException("the NameNode format failed: " + format.logTail());
        }
    }

    private StartedProcess startJava(
            Host host, String role, String heap, String javaClasspath, String mainClass, List<String> args) {
        return HadoopDaemons.startJava(testbed, host, role, heap, javaClasspath, mainClass, args);
    }

    /** Waits until every DataNode is live with its testbed address and space to offer, and safe mode is off. */
    private void awaitReady(Duration timeout) {
        Set<String> expected = new HashSet<>();
        dataNodeHosts.forEach(h -> expected.add(h.address()));
        Readiness.await(testbed, "HDFS", daemons, timeout, "/jmx", () -> {
            NameNodeJmx.Status status = jmx.status();
            Set<String> ready = new HashSet<>(status.dataNodesWithSpace());
            if (!status.safeMode() && ready.containsAll(expected)) {
                return Optional.empty();
            }
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(ready);
            return Optional.of("DataNodes not yet live with space: " + missing
                    + (status.safeMode() ? "; in safe mode" : "")
                    + (status.dataNodesWithSpace().stream().anyMatch(a -> !expected.contains(a))
                            ? "; unexpected DataNode addresses " + status.dataNodesWithSpace()
                            : ""));
        });
    }

    /** Stops the DataNodes, then the NameNode, and deletes every directory of the cluster. */
    @Override
    public void close() {
        List<StartedProcess> stopOrder = new ArrayList<>(daemons);
        java.util.Collections.reverse(stopOrder);
        stopOrder.forEach(testbed.processes()::stop);
        daemons.clear();
        for (Path data : dataDirectories) {
            Directories.deleteRecursively(data);
            testbed.state().removeDirectory(data);
        }
        dataDirectories.clear();
        Directories.deleteRecursively(directory);
        testbed.state().removeDirectory(directory);
    }
}
