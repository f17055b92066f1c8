package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run deletes an existing output directory only when a failed run left it, whatever path it is given. */
class OutputDirectoryTest {
    private final Configuration conf = new Configuration(false);

    @TempDir
    java.nio.file.Path temp;

    @Test
    void aFailedRunsLeftoverIsReplaced() throws Exception {
        java.nio.file.Path out = Files.createDirectories(temp.resolve("out"));
        Files.writeString(out.resolve("part-r-00000"), "a\t1\n");
        Files.writeString(out.resolve("deleted-r-00003"), "");
        Files.writeString(out.resolve("part-m-00001.gz"), "");
        Files.createDirectories(out.resolve("_temporary/0"));
        OutputDirectory.prepare(conf, path(out), List.of(path(input())));
        assertThat(out).doesNotExist();
    }

    @Test
    void anythingElseIsRefusedAndKept() throws Exception {
        java.nio.file.Path input = input();
        java.nio.file.Path file = Files.writeString(temp.resolve("report.txt"), "keep me");
        refused(file, input, "exists and is a file");
        java.nio.file.Path mine = Files.createDirectories(temp.resolve("mine"));
        Files.writeString(mine.resolve("part-r-00000"), "");
        Files.writeString(mine.resolve("notes.txt"), "keep me");
        refused(mine, input, "holds notes.txt, which no run writes");
        java.nio.file.Path finished = Files.createDirectories(temp.resolve("finished"));
        Files.writeString(finished.resolve("_SUCCESS"), "");
        refused(finished, input, "holds a finished run's output");
        assertThat(file).hasContent("keep me");
        assertThat(mine.resolve("notes.txt")).hasContent("keep me");
        assertThat(mine.resolve("part-r-00000")).exists();
        assertThat(finished.resolve("_SUCCESS")).exists();
    }

    @Test
    void anOutputOverlappingTheInputIsRefused() throws Exception {
        java.nio.file.Path input = input();
        refused(input, input, "overlaps input");
        refused(temp, input, "overlaps input");
        refused(input.resolve("out"), input, "overlaps input");
        // Even an input whose files look like a run's own (a chained job's output without its _SUCCESS marker).
        java.nio.file.Path chained = Files.createDirectories(temp.resolve("chained"));
        Files.writeString(chained.resolve("part-r-00000"), "a\t1\n");
        refused(chained, chained.resolve("part-r-00000"), "overlaps input");
        assertThat(input.resolve("a.txt")).hasContent("a b\n");
        assertThat(chained.resolve("part-r-00000")).hasContent("a\t1\n");
    }

    @Test
    void theRootIsRefusedBeforeAnyFileSystemCall() {
        // A NameNode nobody runs: any call past the check would fail to connect, not delete anything.
        Configuration unreachable = new Configuration(false);
        unreachable.setInt("ipc.client.connect.max.retries", 0);
        unreachable.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
        unreachable.set("fs.hdfs.impl", "org.apache.hadoop.hdfs.DistributedFileSystem");
        assertThatThrownBy(() -> OutputDirectory.prepare(
                        unreachable, new Path("hdfs://127.0.0.1:1/"), List.of(new Path("hdfs://127.0.0.1:1/in"))))
                .isInstanceOf(ItchyException.class)
                .hasMessage("output hdfs://127.0.0.1:1/ is the root of its file system; choose a new directory");
    }

    private java.nio.file.Path input() throws Exception {
        java.nio.file.Path input = Files.createDirectories(temp.resolve("in"));
        Files.writeString(input.resolve("a.txt"), "a b\n");
        return input;
    }

    private void refused(java.nio.file.Path output, java.nio.file.Path input, String why) {
        assertThatThrownBy(() -> OutputDirectory.prepare(conf, path(output), List.of(path(input))))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining(why);
    }

    private static Path path(java.nio.file.Path local) {
        return new Path(local.toUri());
    }
}
