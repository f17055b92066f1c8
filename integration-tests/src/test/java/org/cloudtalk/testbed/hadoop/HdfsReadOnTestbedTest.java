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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CloudTalk's read ordering on a real HDFS on a 6-host testbed: the NameNode and a reader in host 0, DataNodes in
 * hosts 1-5, hosts 1-3 busy (TCP rings filling their access links both ways). Files are written with HDFS's own
 * placement (the plugin's write side off), so some have one replica on a busy host and one on an idle host; every
 * read of such a file is served by the idle one, and none fails.
 */
class HdfsReadOnTestbedTest {
    private static final int FILES = 12;
    private static final int READS = 30;
    private static final long BYTES = 2L << 20;
    private static final Map<String, String> READ_ONLY =
            Map.of("cloudtalk.hdfs.write.enabled", "false", "cloudtalk.deadline.ms", "500");

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void readsOfFilesWithABusyAndAnIdleReplicaAreServedByTheIdleOne(@TempDir Path temp) {
        Root.assumeNamespaces();
        // A prefix of its own; subnets drawn like the other testbed tests (which run one at a time).
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("cthr" + id, 6, 400, 0, 130 + 2 * (id % 15), temp.resolve("run"), 0);
        try (Testbed testbed = Testbed.up(config)) {
            Host client = testbed.host(0);
            List<Host> dataNodes = testbed.hosts().subList(1, 6);
            Set<String> busy =
                    dataNodes.subList(0, 3).stream().map(Host::address).collect(Collectors.toSet());
            try (BackgroundLoad load =
                            new BackgroundLoad(testbed).busy(dataNodes.subList(0, 3), Duration.ofMinutes(4));
                    ServerProcess server = ServerProcess.start(
                            testbed,
                            Host.managementRootAddress(config.subnet()),
                            List.of(),
                            List.of(),
                            ServerProcess.oneHopQuery(client, dataNodes));
                    HdfsCluster hdfs = HdfsCluster.start(
                            testbed,
                            client,
                            dataNodes,
                            HdfsSettings.cloudTalk(server.uri()).withOverrides(READ_ONLY))) {
                List<FileWrite> files = hdfs.startWriter(
                                client, new WriteJob("mixed", FILES, BYTES, 2, Duration.ZERO, Duration.ZERO, 11))
                        .await(Duration.ofMinutes(2));
                assertThat(files).allSatisfy(f -> assertThat(f.error()).isEmpty());
                List<FileWrite> mixed = files.stream()
                        .filter(f -> f.replicas().stream().anyMatch(busy::contains)
                                && f.replicas().stream().anyMatch(r -> !busy.contains(r)))
                        .toList();
                assertThat(mixed)
                        .as("files with a busy and an idle replica among %s", files)
                        .isNotEmpty();
                Map<String, FileWrite> byPath = mixed.stream().collect(Collectors.toMap(FileWrite::path, f -> f));
                List<FileRead> reads = hdfs.startReader(
                                client,
                                new ReadJob(
                                        "mixed",
                                        List.copyOf(byPath.keySet()),
                                        mixed.get(0).path(),
                                        READS,
                                        Duration.ofMillis(50),
                                        Duration.ofMillis(150),
                                        13))
                        .await(Duration.ofMinutes(2));
                Map<String, Long> metrics = hdfs.jmx().numbers("Hadoop:service=NameNode,name=CloudTalkHdfsRead");
                String report = "reads " + reads + "\nfiles " + mixed + "\nplugin " + metrics;
                assertThat(reads).as(report).hasSize(READS).allSatisfy(read -> {
                    assertThat(read.error()).isEmpty();
                    assertThat(read.bytes()).isEqualTo(BYTES);
                    assertThat(byPath.get(read.path()).replicas()).contains(read.dataNode());
                });
                long servedByBusy =
                        reads.stream().filter(r -> busy.contains(r.dataNode())).count();
                // HDFS's own order (a shuffle) would send about half of these reads to the busy replica.
                assertThat(servedByBusy).as(report).isLessThanOrEqualTo(READS / 10);
                assertThat(metrics.get("AnswersUsed")).as(report).isGreaterThanOrEqualTo((long) READS);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(Leftovers.namespaces(config.prefix())).isEmpty();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
                .isEmpty();
    }
}
