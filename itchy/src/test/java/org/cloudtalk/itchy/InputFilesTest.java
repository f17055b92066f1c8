package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Input files on the local file system, where users make symbolic links. */
class InputFilesTest {
    @TempDir
    Path temp;

    @Test
    void aFileReachedThroughALinkIsTheFileItself() throws Exception {
        Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("part.txt"), "one two\n");
        Path linkedDirectory = Files.createSymbolicLink(temp.resolve("base-link"), base);
        Path appended = Files.createDirectories(temp.resolve("append"));
        Files.createSymbolicLink(appended.resolve("again.txt"), base.resolve("part.txt"));
        InputFiles inputs = new InputFiles(new Configuration());

        List<org.apache.hadoop.fs.Path> direct = inputs.expand(List.of(hadoop(base)));
        assertThat(inputs.expand(List.of(hadoop(linkedDirectory)))).isEqualTo(direct);
        assertThat(inputs.expand(List.of(hadoop(appended)))).isEqualTo(direct);
        assertThat(inputs.expand(List.of(hadoop(base), hadoop(linkedDirectory))))
                .isEqualTo(direct);
    }

    @Test
    void aHiddenFileNamedAsAnInputIsRefusedNotSkipped() throws Exception {
        Path hidden = Files.writeString(temp.resolve("_part.txt"), "one two\n");
        InputFiles inputs = new InputFiles(new Configuration());

        assertThatThrownBy(() -> inputs.expand(List.of(hadoop(hidden))))
                .isInstanceOf(ItchyException.class)
                .hasMessageEndingWith("is a hidden file (its name starts with '_' or '.'), which Hadoop's input"
                        + " formats skip; rename it");
    }

    private static org.apache.hadoop.fs.Path hadoop(Path path) {
        return new org.apache.hadoop.fs.Path(path.toUri());
    }
}
