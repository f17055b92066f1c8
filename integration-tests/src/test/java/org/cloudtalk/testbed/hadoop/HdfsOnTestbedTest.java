package org.cloudtalk.testbed.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.Leftovers;
import org.cloudtalk.testbed.Root;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.experiment.ServerProcess;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HDFS on a 6-host testbed: the NameNode and a writer in host 0, DataNodes in hosts 1-5, hosts 1-3 busy
 * (TCP rings filling their access links both ways). With CloudTalk's placement policy the writer's replicas land on
 * the two idle DataNodes; stock HDFS (defaults, considerLoad on) puts a clearly larger share on the busy ones. No
 * write fails, and afterwards nothing of the testbed or of HDFS is left.
 */
class HdfsOnTestbedTest {
    private static final int FILES = 20;
    private static final long BYTES = 3L << 20;
    private static final int REPLICATION = 2;
    /**
     * considerLoad (on in both runs) skips a DataNode whose last heartbeat counted more than twice the average
     * number of transfers. With Hadoop's 3 s heartbeats, the two idle DataNodes of one write still count theirs
     * when the next file starts, and even CloudTalk's choice is overruled (seen here: 3 of 40 replicas). Heartbeats
     * every second with pauses of 1-1.5 s between files keep the counts current, for stock and CloudTalk alike.
     */
    private static final Map<String, String> HEARTBEAT = Map.of("dfs.heartbeat.interval", "1");
    /** A NameNode thread waits up to 500 ms for an answer: this 2-core machine is shared. */
    private static final Map<String, String> CLOUDTALK_SETTINGS =
            Map.of("dfs.heartbeat.interval", "1", "cloudtalk.deadline.ms", "500");

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void cloudTalkKeepsReplicasOffBusyHostsWhereStockDoesNot(@TempDir Path temp) throws Exception {
        Root.assumeNamespaces();
        // A prefix and subnets of its own (10.220-249 and the next for management), apart from the other tests'.
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("cthd" + id, 6, 400, 0, 220 + 2 * (id % 15), temp.resolve("run"), 0);
        List<StartedProcess> started;
        Path hdfsDirectory = config.runDir().resolve("hdfs");
        try (Testbed testbed = Testbed.up(config)) {
            Host client = testbed.host(0);
            List<Host> dataNodes = testbed.hosts().subList(1, 6);
            List<Host> busy = dataNodes.subList(0, 3);
            Set<String> busyAddresses = busy.stream().map(Host::address).collect(Collectors.toSet());
            Set<String> dataNodeAddresses =
                    dataNodes.stream().map(Host::address).collect(Collectors.toSet());
            try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, Duration.ofMinutes(5));
                    ServerProcess server = ServerProcess.start(
                            testbed,
                            Host.managementRootAddress(config.subnet()),
                            List.of(),
                            List.of(),
                            ServerProcess.oneHopQuery(client, dataNodes))) {
                List<FileWrite> cloudTalk;
                Map<String, Long> pluginMetrics;
                try (HdfsCluster hdfs = HdfsCluster.start(
                        testbed,
                        client,
                        dataNodes,
                        HdfsSettings.cloudTalk(server.uri()).withOverrides(CLOUDTALK_SETTINGS))) {
                    assertThat(testbed.startedProcesses())
                            .extracting(StartedProcess::role)
                            .contains("namenode", "datanode-1", "datanode-5");
                    cloudTalk = write(hdfs, client, "cloudtalk");
                    pluginMetrics = hdfs.jmx().numbers("Hadoop:service=NameNode,name=CloudTalkHdfsWrite");
                }
                // close() stopped its daemons and removed its directories.
                assertThat(testbed.startedProcesses())
                        .extracting(StartedProcess::role)
                        .noneMatch(role -> role.contains("node"));
                assertThat(hdfsDirectory).doesNotExist();
                // The stock cluster is left running for `down`, as after a crashed run: the state file alone must
                // get its processes and directories removed.
                HdfsCluster hdfs = HdfsCluster.start(
                        testbed,
                        client,
                        dataNodes,
                        HdfsSettings.stock(HdfsPlacement.STOCK_DEFAULTS).withOverrides(HEARTBEAT));
                List<FileWrite> stock = write(hdfs, client, "stock");
                double cloudTalkBusy = busyShare(cloudTalk, busyAddresses);
                double stockBusy = busyShare(stock, busyAddresses);
                String report = String.format(
                        "replicas on busy hosts: cloudtalk %.0f%%, stock %.0f%%; plugin %s%ncloudtalk %s%nstock %s",
                        cloudTalkBusy * 100, stockBusy * 100, pluginMetrics, cloudTalk, stock);
                System.out.println(report);
                for (List<FileWrite> writes : List.of(cloudTalk, stock)) {
                    assertThat(writes).as(report).hasSize(FILES).allSatisfy(write -> {
                        assertThat(write.error()).isEmpty();
                        assertThat(write.blocks()).hasSize(1);
                        assertThat(write.replicas())
                                .hasSize(REPLICATION)
                                .doesNotHaveDuplicates()
                                .allMatch(dataNodeAddresses::contains);
                    });
                }
                // The plugin answered every block (a fallback would be a default, random choice).
                assertThat(pluginMetrics).as(report).containsKey("AnswersUsed");
                assertThat(pluginMetrics.get("AnswersUsed")).as(report).isGreaterThanOrEqualTo(FILES);
                // Two idle DataNodes, two replicas: CloudTalk has a clean choice every time. Stock picks among all
                // five (3 busy): 60% expected, as xceiver counts do not see link load.
                assertThat(cloudTalkBusy).as(report).isLessThanOrEqualTo(0.1);
                assertThat(stockBusy).as(report).isGreaterThanOrEqualTo(cloudTalkBusy + 0.3);
            }
            started = testbed.startedProcesses();
            assertThat(started).extracting(StartedProcess::role).contains("namenode", "datanode-3");
        }
        assertThat(Leftovers.namespaces(config.prefix())).isEmpty();
        assertThat(Leftovers.rootLinks(config.prefix())).isEmpty();
        assertThat(started).allSatisfy(p -> assertThat(p.handle()).isEmpty());
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
                .isEmpty();
        assertThat(hdfsDirectory).doesNotExist();
    }

    private static List<FileWrite> write(HdfsCluster hdfs, Host client, String name) {
        WriteJob job =
                new WriteJob(name, FILES, BYTES, REPLICATION, Duration.ofMillis(1000), Duration.ofMillis(1500), 7);
        return hdfs.startWriter(client, job).await(Duration.ofMinutes(2));
    }

    private static double busyShare(List<FileWrite> writes, Set<String> busy) {
        List<String> replicas =
                writes.stream().flatMap(w -> w.replicas().stream()).toList();
        return replicas.stream().filter(busy::contains).count() / (double) replicas.size();
    }
}
