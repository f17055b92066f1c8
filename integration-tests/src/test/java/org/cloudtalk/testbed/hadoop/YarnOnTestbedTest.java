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
 * A real YARN over a real HDFS on a 6-host testbed: the NameNode, the ResourceManager (with CloudTalk's node order)
 * and the job client in host 0, a DataNode and a NodeManager in each of hosts 1-5, hosts 1 and 2 busy (TCP rings
 * filling their access links). A sort job's three reduces run on the three idle hosts: the placement the MiniYARN
 * test shows, here with real daemons, real status and real shuffles. Afterwards nothing is left.
 */
class YarnOnTestbedTest {
    private static final int REDUCES = 3;
    /** Reduces start once every map is done, so the nodes' allocations are the application master's alone. */
    private static final Map<String, String> JOB = Map.of("mapreduce.job.reduce.slowstart.completedmaps", "1.0");

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void reducesRunOnTheHostsWhoseLinksAreIdle(@TempDir Path temp) throws Exception {
        Root.assumeNamespaces();
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("ctyn" + id, 6, 400, 0, 190 + 2 * (id % 15), temp.resolve("run"), 0);
        List<StartedProcess> started;
        try (Testbed testbed = Testbed.up(config)) {
            Host master = testbed.host(0);
            List<Host> workers = testbed.hosts().subList(1, 6);
            List<Host> busy = workers.subList(0, 2);
            Set<String> busyAddresses = busy.stream().map(Host::address).collect(Collectors.toSet());
            String probe = "X = (" + workers.stream().map(Host::address).collect(Collectors.joining(" "))
                    + ")\nf1 0.0.0.0 -> X size 1M\n";
            try (BackgroundLoad load = new BackgroundLoad(testbed).busy(busy, Duration.ofMinutes(6));
                    ServerProcess server = ServerProcess.start(
                            testbed, Host.managementRootAddress(config.subnet()), List.of(), List.of(), probe);
                    HdfsCluster hdfs = HdfsCluster.start(
                            testbed, master, workers, HdfsSettings.stock(HdfsPlacement.STOCK_DEFAULTS));
                    YarnCluster yarn = YarnCluster.start(
                            testbed,
                            hdfs,
                            master,
                            workers,
                            YarnSettings.cloudTalk(server.uri())
                                    .withOverrides(Map.of("cloudtalk.deadline.ms", "1000")))) {
                MapReduceJobs.Outcome generate = yarn.run(
                        master, Duration.ofMinutes(2), Map.of(), MapReduceJobs.generate("/sort-in", 4, 2L << 20));
                assertThat(generate.succeeded())
                        .as("the input was generated: %s", generate)
                        .isTrue();

                MapReduceJobs.Outcome sort = yarn.run(
                        master, Duration.ofMinutes(3), JOB, MapReduceJobs.sort("/sort-in", "/sort-out", REDUCES));
                Map<String, Long> policy =
                        yarn.jmx().numbers("Hadoop:service=ResourceManager,name=CloudTalkYarnPlacement");
                String report = "sort " + sort + "; policy " + policy;
                System.out.println(report);

                assertThat(sort.succeeded()).as(report).isTrue();
                assertThat(policy.getOrDefault("AnswersUsed", 0L)).as(report).isPositive();
                assertThat(sort.reduces()).as(report).hasSize(REDUCES).allSatisfy(reduce -> {
                    assertThat(reduce.host()).isNotIn(busyAddresses);
                    assertThat(reduce.shuffleSeconds()).isBetween(0.0, reduce.seconds());
                });
                // One identity map per input file, each on a worker (the job's history names its host).
                assertThat(sort.mapHosts()).as(report).hasSize(4).allSatisfy(host -> assertThat(host)
                        .isIn(workers.stream().map(Host::address).toList()));
                assertThat(sort.applicationMasterHosts())
                        .as(report)
                        .singleElement()
                        .isIn(workers.stream().map(Host::address).toList());
                assertThat(testbed.startedProcesses())
                        .extracting(StartedProcess::role)
                        .contains("resourcemanager", "nodemanager-1", "nodemanager-5");
            }
            started = testbed.startedProcesses();
        }
        assertThat(Leftovers.namespaces(config.prefix())).isEmpty();
        assertThat(started).allSatisfy(p -> assertThat(p.handle()).isEmpty());
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
                .isEmpty();
        assertThat(config.runDir().resolve("yarn")).doesNotExist();
    }
}
