package org.cloudtalk.common.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextFileTest {
    @TempDir
    Path temp;

    @Test
    void readsTextWithoutItsByteOrderMark() throws Exception {
        Path file = temp.resolve("a.txt");
        Files.writeString(file, "\uFEFFone\ntwo\n");

        assertThat(TextFile.read(file)).isEqualTo("one\ntwo\n");
    }

    /** The bad line is counted as the parsers count lines, whatever ends them. */
    @ParameterizedTest
    @ValueSource(strings = {"\n", "\r\n", "\r"})
    void saysWhichLineIsNotUtf8(String ending) throws Exception {
        Path file = temp.resolve("latin.txt");
        byte[] bad = ("one" + ending + "two" + ending + "three" + ending + "caf").getBytes(StandardCharsets.UTF_8);
        byte[] bytes = java.util.Arrays.copyOf(bad, bad.length + 1);
        bytes[bad.length] = (byte) 0xE9; // é in Latin-1
        Files.write(file, bytes);

        assertThatThrownBy(() -> TextFile.read(file))
                .isInstanceOf(TextFile.BadTextException.class)
                .hasMessage("line 4: not valid UTF-8 text");
    }

    @Test
    void refusesAFileOverItsLimit() throws Exception {
        Path file = temp.resolve("big.txt");
        Files.write(file, new byte[(1 << 20) + 1]);

        assertThatThrownBy(() -> TextFile.read(file, 1 << 20))
                .isInstanceOf(TextFile.BadTextException.class)
                .hasMessage("larger than 1 MB");
    }
}
