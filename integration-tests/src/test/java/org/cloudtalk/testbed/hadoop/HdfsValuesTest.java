package org.cloudtalk.testbed.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.testbed.TestbedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HDFS library's values and inputs, without a testbed: CSV rows, refused settings, missing class paths. */
class HdfsValuesTest {
    @Test
    void aWriteSurvivesItsCsvRow() {
        FileWrite written = new FileWrite(
                "/writes/a/f-00001",
                3 << 20,
                1_700_000_000_000L,
                0.25,
                List.of(List.of("10.1.1.2", "10.1.1.3"), List.of("10.1.1.4", "10.1.1.2")),
                "");
        assertThat(FileWrite.fromCsv(written.toCsv())).isEqualTo(written);
        assertThat(written.replicas()).containsExactly("10.1.1.2", "10.1.1.3", "10.1.1.4", "10.1.1.2");

        FileWrite failed = new FileWrite("/writes/a/f-00002", 1, 1, 9.5, List.of(), "java.io.IOException: a, b\nc");
        FileWrite read = FileWrite.fromCsv(failed.toCsv());
        assertThat(read.ok()).isFalse();
        assertThat(read.error()).isEqualTo("java.io.IOException: a  b c");
        assertThat(read.blocks()).isEmpty();
    }

    @Test
    void aReadSurvivesItsCsvRow() {
        FileRead read = new FileRead("/writes/a/f-00001", 64 << 20, 1_700_000_000_000L, 1.5, "10.1.1.3", "");
        assertThat(FileRead.fromCsv(read.toCsv())).isEqualTo(read);
        FileRead failed = new FileRead("/writes/a/f-00002", 0, 1, 0.1, "", "java.io.IOException: no, block\n");
        assertThat(FileRead.fromCsv(failed.toCsv()).error()).isEqualTo("java.io.IOException: no  block ");
        assertThatThrownBy(() -> FileRead.fromCsv("a,1,2")).hasMessageContaining("expected 6 fields");
    }

    @Test
    void badReadJobsAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new ReadJob("a", List.of(), "/w", 1, Duration.ZERO, Duration.ZERO, 1))
                .isInstanceOf(TestbedException.class)
                .hasMessageStartingWith("Invalid value [] for paths");
        assertThatThrownBy(() -> new ReadJob("a", List.of("relative"), "/w", 1, Duration.ZERO, Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value [relative] for paths");
        assertThatThrownBy(() -> new ReadJob("a", List.of("/f"), "/w", 0, Duration.ZERO, Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value 0 for reads");
        assertThatThrownBy(() -> new ReadJob("a", List.of("/f"), "/w", 1, Duration.ofSeconds(1), Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value PT1S-PT0S for pause");
        assertThatThrownBy(() -> new ReadJob("a", List.of("/f"), "w", 1, Duration.ZERO, Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value w for warm-up path");
    }

    @Test
    void theReaderRefusesIncompleteArgumentsAndAMissingPathFile(@TempDir Path temp) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(HdfsReaderMain.run(new String[] {"--namenode", "hdfs://10.1.1.1:8020"}, stream))
                .isEqualTo(64);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("hdfs reader: --name is missing")
                .contains("usage: --namenode URI");
        err.reset();
        String[] args = {
            "--namenode",
            "hdfs://10.1.1.1:8020",
            "--name",
            "a",
            "--paths",
            temp.resolve("none").toString(),
            "--warm-up",
            "/w",
            "--reads",
            "1",
            "--min-pause-ms",
            "0",
            "--max-pause-ms",
            "0",
            "--seed",
            "1",
            "--out",
            temp.resolve("out.csv").toString()
        };
        assertThat(HdfsReaderMain.run(args, stream)).isEqualTo(64);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("hdfs reader: ")
                .contains("none");
        assertThat(temp.resolve("out.csv")).doesNotExist();
    }

    @Test
    void badJobsAndSettingsAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new WriteJob("a b", 1, 1, 2, Duration.ZERO, Duration.ZERO, 1))
                .isInstanceOf(TestbedException.class)
                .hasMessageStartingWith("Invalid value a b for name");
        assertThatThrownBy(() -> new WriteJob("a", 0, 1, 2, Duration.ZERO, Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value 0 for files");
        assertThatThrownBy(() -> new WriteJob("a", 1, 1, 0, Duration.ZERO, Duration.ZERO, 1))
                .hasMessageStartingWith("Invalid value 0 for replication");
        assertThatThrownBy(() -> new WriteJob("a", 1, 1, 2, Duration.ofSeconds(2), Duration.ofSeconds(1), 1))
                .hasMessageStartingWith("Invalid value PT2S-PT1S for pause");
        assertThatThrownBy(() -> HdfsPlacement.parse("best"))
                .hasMessage("Invalid value best for placement: one of stock-defaults, stock-best, cloudtalk");
        assertThat(HdfsPlacement.parse("stock-best")).isEqualTo(HdfsPlacement.STOCK_BEST);
        assertThatThrownBy(() -> new HdfsSettings(HdfsPlacement.CLOUDTALK, Optional.empty(), Map.of()))
                .hasMessageContaining("needs a CloudTalk server");
        assertThatThrownBy(() -> new HdfsSettings(
                        HdfsPlacement.STOCK_DEFAULTS, Optional.of(URI.create("http://10.1.0.1:1")), Map.of()))
                .hasMessageContaining("asks no CloudTalk server");
    }

    @Test
    void placementsSetWhatIssue14Names() {
        assertThat(HdfsPlacement.STOCK_DEFAULTS.settings())
                .containsEntry("dfs.namenode.redundancy.considerLoad", "true")
                .doesNotContainKey("dfs.block.replicator.classname");
        assertThat(HdfsPlacement.STOCK_BEST.settings())
                .containsEntry("dfs.namenode.read.considerLoad", "true")
                .containsEntry("dfs.datanode.peer.stats.enabled", "true")
                .containsEntry("dfs.namenode.block-placement-policy.exclude-slow-nodes.enabled", "true");
        assertThat(HdfsPlacement.CLOUDTALK.settings())
                .containsEntry("dfs.block.replicator.classname", HdfsPlacement.POLICY)
                .containsEntry("dfs.net.topology.impl", HdfsPlacement.TOPOLOGY);
    }

    @Test
    void theWriterRefusesIncompleteArgumentsWithUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = HdfsWriterMain.run(
                new String[] {"--namenode", "hdfs://10.1.1.1:8020", "--files", "3"},
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(64);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("hdfs writer: --dir is missing")
                .contains("usage: --namenode URI");
    }

    @Test
    void aMissingOrStaleClassPathSaysHowToBuildIt(@TempDir Path build) throws Exception {
        assertThatThrownBy(() -> HadoopClasspath.of(build, build))
                .isInstanceOf(TestbedException.class)
                .hasMessageContaining("hadoop.classpath is missing")
                .hasMessageContaining("mvn -pl integration-tests -am package -DskipTests");
        Files.writeString(
                build.resolve(HadoopClasspath.HADOOP_FILE),
                build.resolve("gone.jar").toString());
        Files.writeString(build.resolve(HadoopClasspath.PLUGIN_FILE), build.toString());
        assertThatThrownBy(() -> HadoopClasspath.of(build, build))
                .hasMessageContaining("names " + build.resolve("gone.jar") + ", which does not exist");
    }
}
