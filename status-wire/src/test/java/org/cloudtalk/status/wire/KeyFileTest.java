package org.cloudtalk.status.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {
    @TempDir
    Path dir;

    @Test
    void readsTheKeyLessTrailingWhitespace() throws Exception {
        Path key = Files.writeString(dir.resolve("key"), "loopback-test-key-0123456789\n");

        assertThat(new String(KeyFile.read(key), StandardCharsets.UTF_8)).isEqualTo("loopback-test-key-0123456789");
    }

    @Test
    void refusesKeysTooShortOrTooLongAndEndlessFilesWithoutReadingThemWhole() throws Exception {
        assertThatThrownBy(() -> KeyFile.read(Files.writeString(dir.resolve("short"), "abc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the key must be at least 16 bytes");
        assertThatThrownBy(() -> KeyFile.read(Files.write(dir.resolve("long"), new byte[4097])))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the key must be at most 4096 bytes");
        // Endless: read as a whole, it filled the status daemon's 64 MB heap.
        assertThatThrownBy(() -> KeyFile.read(Path.of("/dev/zero")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the key must be at most 4096 bytes");
    }
}
