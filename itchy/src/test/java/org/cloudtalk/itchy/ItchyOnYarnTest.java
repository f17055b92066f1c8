package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Itchy on a real YARN cluster, not the local job runner: every technique's jobs (a QMC increment's key pass too) run
 * as MapReduce applications on a MiniMRYarnCluster over the HDFS and HBase mini clusters (one of each for the class),
 * in containers whose classpath holds Hadoop's jars only. HBase's jars and Itchy's classes reach the tasks the way
 * they do on a cluster: the job jar and {@code tmpjars}. After the first job and an increment, the current result
 * equals a full recompute (run with the local job runner over the same files).
 */
// A task that cannot load an HBase class retries its RPCs for many minutes before it fails: fail sooner.
@Timeout(value = 4, unit = java.util.concurrent.TimeUnit.MINUTES)
class ItchyOnYarnTest {
    private static MiniClusters clusters;
    private static FileSystem fs;
    private static Configuration yarnConf;

    @BeforeAll
    static void start() throws Exception {
        clusters = MiniClusters.start();
        fs = clusters.fileSystem();
        yarnConf = clusters.startYarn();
    }

    @AfterAll
    static void stop() throws Exception {
        if (clusters != null) {
            clusters.close();
        }
    }

    static Stream<Arguments> techniques() {
        return Stream.of(
                Arguments.of(ItchyTest.WORD_COUNT, ItchyMode.MERGE),
                Arguments.of(ItchyTest.JOB1, ItchyMode.MO),
                Arguments.of(ItchyTest.JOB_AVG, ItchyMode.QMC));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("techniques")
    void runsOnYarnAndEqualsAFullRecompute(ItchyTest.Example example, ItchyMode mode) throws Exception {
        String name = "yarn-" + example.id() + "-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        Path root = new Path("/itchy-yarn/" + name);
        Path base = new Path(root, "base");
        example.data().write(fs, new Path(base, "a.txt"), 300, 21);
        example.data().write(fs, new Path(base, "b.txt"), 300, 22);
        List<Path> inputs = new ArrayList<>(List.of(base));
        ItchyJob job = example.job().apply(settings(yarnConf, mode), name);

        Set<ApplicationId> before = applications();
        assertThat(job.runFirst(List.of(base), new Path(root, "out-0")).mode()).isEqualTo(mode);
        assertSucceededOnYarn(before, 1);
        assertThat(ItchyOutput.current(yarnConf, name)).isEqualTo(recompute(example, mode, inputs, root, 0));

        Path appended = new Path(root, "append-1");
        example.data().write(fs, new Path(appended, "part.txt"), 40, 101);
        inputs.add(appended);
        before = applications();
        ItchyJob.RunReport report = job.runIncrement(List.of(appended), new Path(root, "out-1"));
        // QMC's increment is two jobs: the key pass over the appended records, then the re-read of the base records.
        assertSucceededOnYarn(before, mode == ItchyMode.QMC ? 2 : 1);
        assertThat(ItchyOutput.current(yarnConf, name)).isEqualTo(recompute(example, mode, inputs, root, 1));
        // The increment was incremental: QMC re-read some base records, MO read stored values, Merge only the append.
        switch (mode) {
            case QMC -> assertThat(report.counter(ItchyCounters.BASE_RECORDS_REREAD))
                    .isPositive()
                    .isLessThan(600);
            case MO -> assertThat(report.counter(ItchyCounters.STORED_VALUES_READ))
                    .isPositive();
            default -> assertThat(report.counter(ItchyCounters.MAP_INPUT_RECORDS))
                    .isEqualTo(40);
        }
    }

    /** The test's settings over a cluster's configuration: several chunks per HBase cell and HFiles per task. */
    private static Configuration settings(Configuration cluster, ItchyMode mode) {
        Configuration conf = new Configuration(cluster);
        conf.set(ItchyConf.MODE, mode.name());
        conf.setInt(ItchyConf.CHUNK_BYTES, 256);
        conf.setLong(ItchyConf.BULK_SPILL_BYTES, 32 * 1024);
        return conf;
    }

    /** The plain job over all inputs, in the local job runner: what the result must equal. */
    private static Map<?, ?> recompute(
            ItchyTest.Example example, ItchyMode mode, List<Path> inputs, Path root, int step) throws Exception {
        return ItchyTest.recompute(example, settings(clusters.jobConf(), mode), inputs, new Path(root, "full-" + step));
    }

    private static Set<ApplicationId> applications() {
        return Set.copyOf(
                clusters.yarn().getResourceManager().getRMContext().getRMApps().keySet());
    }

    /** Exactly {@code count} applications were submitted to YARN since {@code before}, and all succeeded. */
    private static void assertSucceededOnYarn(Set<ApplicationId> before, int count) {
        Map<ApplicationId, RMApp> apps =
                clusters.yarn().getResourceManager().getRMContext().getRMApps();
        Map<ApplicationId, FinalApplicationStatus> added = apps.entrySet().stream()
                .filter(entry -> !before.contains(entry.getKey()))
                .collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().getFinalApplicationStatus()));
        assertThat(added).hasSize(count);
        assertThat(added.values()).containsOnly(FinalApplicationStatus.SUCCEEDED);
    }
}
