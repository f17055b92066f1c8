package org.cloudtalk.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.cloudtalk.server.state.HostLoad;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticStatusSourceTest {
    @Test
    void readsTheFileAndRereadsItWhenItChanges(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        write(file, 800, Instant.parse("2026-01-01T00:00:00Z"));
        StaticStatusSource source = new StaticStatusSource(file);
        StatusSource.Gathered gathered = source.gather(Set.of("10.0.0.1", "10.0.0.2"), Duration.ZERO);
        assertThat(gathered.answered()).isEqualTo(1);
        assertThat(gathered.state().load("10.0.0.1")).isEqualTo(new HostLoad(125e6, 100.0, 125e6, 0, 2e8, 0, 2e8, 5e7));
        assertThat(gathered.state().load("10.0.0.2")).isEqualTo(HostLoad.UNREACHABLE);

        write(file, 1600, Instant.parse("2026-01-01T00:00:10Z"));
        assertThat(source.gather(Set.of("10.0.0.1"), Duration.ZERO)
                        .state()
                        .load("10.0.0.1")
                        .rxUse())
                .isEqualTo(200.0);
    }

    @Test
    void explainsWhatIsWrongWithTheFile(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        Files.writeString(file, "{\"hosts\": {\"10.0.0.1\": {\"nicRxCapacityBitsPerSecond\": 1}}}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .isInstanceOf(IOException.class)
                .hasMessageEndingWith("host 10.0.0.1: missing number nicTxCapacityBitsPerSecond");
        Files.writeString(file, "{\"hosts\": {\"db1\": {}}}");
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessageContaining("host 'db1'");
        Files.writeString(file, "[]");
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessageContaining("expected an object");
    }

    private static void write(Path file, long rxUseBits, Instant modified) throws IOException {
        Files.writeString(
                file,
                "{\"hosts\": {\"10.0.0.1\": {"
                        + "\"nicRxCapacityBitsPerSecond\": 1e9, \"nicRxUseBitsPerSecond\": " + rxUseBits + ","
                        + "\"nicTxCapacityBitsPerSecond\": 1e9,"
                        + "\"diskReadCapacityBytesPerSecond\": 2e8,"
                        + "\"diskWriteCapacityBytesPerSecond\": 2e8, \"diskWriteUseBytesPerSecond\": 5e7}}}");
        Files.setLastModifiedTime(file, FileTime.from(modified));
    }
}
