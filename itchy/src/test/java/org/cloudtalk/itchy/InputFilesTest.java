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

    /**
     * Hadoop's input formats cannot glob a file name with a colon, and read one with a glob character as a pattern:
     * such a file, listed in a directory or named, is refused by name before a job fails on it or reads other files.
     */
    @Test
    void aFileNameHadoopCannotReadIsRefusedByName() throws Exception {
        Path appended = Files.createDirectories(temp.resolve("append"));
        Path colon = Files.writeString(appended.resolve("x:y"), "one two\n");
        InputFiles inputs = new InputFiles(new Configuration());

        for (Path input : List.of(appended, colon)) {
            assertThatThrownBy(() -> inputs.expand(List.of(hadoop(input))))
                    .isInstanceOf(ItchyException.class)
                    .hasMessageContaining("x:y has a name Hadoop cannot read as a path")
                    .hasMessageEndingWith("a colon in a file name is the usual cause): rename it");
        }
        // A glob character: "a*" would match "ab" too, whose records would be read twice.
        Path globbed = Files.createDirectories(temp.resolve("globbed"));
        Files.writeString(globbed.resolve("a*"), "one\n");
        Files.writeString(globbed.resolve("ab"), "two\n");
        assertThatThrownBy(() -> inputs.expand(List.of(hadoop(globbed))))
                .isInstanceOf(ItchyException.class)
                .hasMessageContaining("a* has a name Hadoop's input formats read as a glob pattern");
        // A pattern meant to be expanded, naming no file of its own, is said to be one.
        assertThatThrownBy(() -> inputs.expand(List.of(hadoop(globbed.resolve("b*")))))
                .isInstanceOf(ItchyException.class)
                .hasMessageEndingWith("does not exist; Itchy takes inputs as they are named and does not expand glob"
                        + " patterns: name the files, or their directory");
    }

    private static org.apache.hadoop.fs.Path hadoop(Path path) {
        return new org.apache.hadoop.fs.Path(path.toUri());
    }
}
