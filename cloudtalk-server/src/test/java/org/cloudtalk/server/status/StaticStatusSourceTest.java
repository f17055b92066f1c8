package org.cloudtalk.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.status.cli.StatusProbe;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticStatusSourceTest {
    @Test
    void readsTheFileAndRereadsItWhenItChanges(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        write(file, 800, Instant.parse("2026-01-01T00:00:00Z"));
        StaticStatusSource source = new StaticStatusSource(file);
        StatusSource.Gathered gathered = source.gather(hosts("10.0.0.1", "10.0.0.2"), Duration.ZERO);
        assertThat(gathered.answered()).isEqualTo(1);
        assertThat(gathered.state().load("10.0.0.1")).isEqualTo(new HostLoad(125e6, 100.0, 125e6, 0, 2e8, 0, 2e8, 5e7));
        assertThat(gathered.state().load("10.0.0.2")).isEqualTo(HostLoad.UNREACHABLE);

        write(file, 1600, Instant.parse("2026-01-01T00:00:10Z"));
        assertThat(source.gather(hosts("10.0.0.1"), Duration.ZERO)
                        .state()
                        .load("10.0.0.1")
                        .rxUse())
                .isEqualTo(200.0);
    }

    @Test
    void aFileThatIsBadForAMomentLeavesItsLastGoodVersionInUse(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        write(file, 800, Instant.parse("2026-01-01T00:00:00Z"));
        long[] now = {0};
        StaticStatusSource source = new StaticStatusSource(file, () -> now[0]);

        // Truncated (as `status probe > file` does first), half written, then gone: queries keep the last good one.
        FileTime sameTick = FileTime.from(Instant.parse("2026-01-01T00:00:10Z"));
        Files.writeString(file, "");
        Files.setLastModifiedTime(file, sameTick);
        assertThat(rxUse(source)).isEqualTo(100.0);
        Files.writeString(file, "{\"hosts\": {\"10.0.0.1\": garbage");
        Files.setLastModifiedTime(file, sameTick);
        assertThat(rxUse(source)).isEqualTo(100.0);
        Files.delete(file);
        assertThat(rxUse(source)).isEqualTo(100.0);

        // Rewritten within the same timestamp tick as the bad version: the new size tells it apart.
        write(file, 1600, Instant.parse("2026-01-01T00:00:10Z"));
        assertThat(rxUse(source)).isEqualTo(200.0);

        // Same tick and size as a bad version it follows: tried again after a second.
        Path twin = temp.resolve("twin.json");
        write(twin, 8000, Instant.parse("2026-01-01T00:00:20Z"));
        String good = Files.readString(twin);
        Files.writeString(file, good.replace('{', ' '));
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:20Z")));
        assertThat(rxUse(source)).isEqualTo(200.0);
        Files.writeString(file, good);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:20Z")));
        assertThat(rxUse(source)).as("within a second of the failure").isEqualTo(200.0);
        now[0] += Duration.ofSeconds(1).toNanos();
        assertThat(rxUse(source)).isEqualTo(1000.0);
    }

    /** A pipe, a device or a directory in the file's place is never opened: queries go on with the last version. */
    @Test
    void aFileThatIsNotARegularFileIsNeverRead(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        write(file, 800, Instant.parse("2026-01-01T00:00:00Z"));
        StaticStatusSource source = new StaticStatusSource(file);
        Files.delete(file);
        Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();

        // Opening a pipe for reading waits for a writer: this query would never return, nor any after it.
        assertThat(rxUse(source)).isEqualTo(100.0);
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessage(file + ": not a regular file");
        assertThatThrownBy(() -> new StaticStatusSource(Path.of("/dev/zero")))
                .hasMessage("/dev/zero: not a regular file");

        Files.delete(file);
        write(file, 1600, Instant.parse("2026-01-01T00:00:10Z"));
        assertThat(rxUse(source)).isEqualTo(200.0);
    }

    @Test
    void aFileOverTheSizeLimitIsRefused(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("status.json");
        write(file, 800, Instant.parse("2026-01-01T00:00:00Z"));
        StaticStatusSource source = new StaticStatusSource(file);
        try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {' '}), org.cloudtalk.common.io.TextFile.MAX_BYTES);
        }

        assertThat(rxUse(source)).isEqualTo(100.0);
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessage(file + ": larger than 64 MB");
    }

    private static double rxUse(StaticStatusSource source) {
        return source.gather(hosts("10.0.0.1"), Duration.ZERO)
                .state()
                .load("10.0.0.1")
                .rxUse();
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
        Files.writeString(
                file,
                "{\"hosts\": {\"10.0.0.1\": {\"nicRxCapacityBitsPerSecond\": 1e9, \"nicRxUseBitsPerSecond\": -1,"
                        + " \"nicTxCapacityBitsPerSecond\": 1e9, \"diskReadCapacityBytesPerSecond\": 1,"
                        + " \"diskWriteCapacityBytesPerSecond\": 1}}}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageEndingWith("host 10.0.0.1: nicRxUseBitsPerSecond is negative: -1");
        Files.writeString(file, "[]");
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessageContaining("expected an object");
        String host = "{\"nicRxCapacityBitsPerSecond\": 1e9, \"nicTxCapacityBitsPerSecond\": 1e9,"
                + " \"diskReadCapacityBytesPerSecond\": 1, \"diskWriteCapacityBytesPerSecond\": 1}";
        // A probe's entry for the host, pasted as its value, is taken; a misspelt field must not read as no load; a
        // number in quotes is not a number.
        Files.writeString(
                file,
                "{\"hosts\": {\"10.0.0.1\": "
                        + host.replace("{", "{\"endpoint\": \"10.0.0.1\", \"known\": true, \"sampleAgeMillis\": 150, ")
                        + "}}");
        assertThat(new StaticStatusSource(file)
                        .gather(Set.of(Address.parse("10.0.0.1")), Duration.ZERO)
                        .answered())
                .isEqualTo(1);
        Files.writeString(
                file, "{\"hosts\": {\"10.0.0.1\": " + host.replace("{", "{\"nicRxUseBitsPerSecnd\": 9e8, ") + "}}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageContaining("host 10.0.0.1: unknown field \"nicRxUseBitsPerSecnd\" (the fields are"
                        + " diskReadCapacityBytesPerSecond, ");
        Files.writeString(
                file,
                "{\"hosts\": {\"10.0.0.1\": "
                        + host.replace("\"nicRxCapacityBitsPerSecond\": 1e9", "\"nicRxCapacityBitsPerSecond\": \"1e9\"")
                        + "}}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageEndingWith("host 10.0.0.1: nicRxCapacityBitsPerSecond is not a number: \"1e9\"");
        Files.writeString(file, "{\"hosts\": {\"10.0.0.1\": " + host + ", \"::ffff:10.0.0.1\": " + host + "}}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageEndingWith("host '::ffff:10.0.0.1' is 10.0.0.1, which is given twice");
        Files.writeString(file, "{\"hosts\": {\"10.0.0.1\": " + host + ", \"10.0.0.1\": " + host + "}}");
        assertThatThrownBy(() -> new StaticStatusSource(file)).hasMessageContaining("Duplicate field '10.0.0.1'");
        // JSON errors: one line, with the place in the file; nothing may follow the document.
        Files.writeString(file, "{\n  \"hosts\": {");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageStartingWith(file + ": not valid JSON at line 2, column ")
                .message()
                .doesNotContain("\n");
        Files.writeString(file, "{\"hosts\": {\"10.0.0.1\": " + host + "}} trailing");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageStartingWith(file + ": not valid JSON at line 1, column ");
        Files.writeString(file, "[".repeat(100_000));
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageStartingWith(file + ": not valid JSON")
                .message()
                .doesNotContain("\n");
        Files.writeString(
                file,
                "{\"endpoints\": [" + host.replace("{", "{\"endpoint\": \"10.0.0.1\", ") + ", "
                        + host.replace("{", "{\"endpoint\": \"::ffff:10.0.0.1\", ") + "]}");
        assertThatThrownBy(() -> new StaticStatusSource(file))
                .hasMessageEndingWith("host '::ffff:10.0.0.1' is 10.0.0.1, which is given twice");
    }

    @Test
    void takesWhatTheProbePrints(@TempDir Path temp) throws Exception {
        Path key = temp.resolve("key");
        Files.writeString(key, "loopback-test-key-0123456789");
        Map<String, String> properties = new HashMap<>();
        properties.put("key.file", key.toString());
        properties.put("bind", "127.0.0.1");
        properties.put("port", "0");
        properties.put("endpoints", "127.0.0.1");
        properties.put("interface", "lo");
        properties.put("disk.path", temp.toString());
        properties.put("nic.capacity.mbps", "100");
        properties.put("disk.read.capacity.mibps", "50");
        properties.put("disk.write.capacity.mibps", "40");
        String reply;
        try (StatusDaemon daemon = StatusDaemon.start(DaemonConfig.from(properties))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = StatusProbe.run(
                    new String[] {"127.0.0.1:" + daemon.localAddress().getPort(), "--key-file", key.toString()},
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(exit).isZero();
            reply = out.toString(StandardCharsets.UTF_8);
        }
        Path whole = temp.resolve("probe.json");
        Files.writeString(whole, reply);
        Path asHost = temp.resolve("hosts.json");
        Files.writeString(asHost, "{\"hosts\": {\"127.0.0.1\": " + reply + "}}");
        for (Path file : List.of(whole, asHost)) {
            HostLoad load = new StaticStatusSource(file)
                    .gather(hosts("127.0.0.1"), Duration.ZERO)
                    .state()
                    .load("127.0.0.1");
            assertThat(load.rxCapacity()).as(file.toString()).isEqualTo(100e6 / 8);
            assertThat(load.diskReadCapacity()).as(file.toString()).isEqualTo(50.0 * (1 << 20));
            assertThat(load.diskWriteCapacity()).as(file.toString()).isEqualTo(40.0 * (1 << 20));
        }
        Files.writeString(
                asHost,
                "{\"hosts\": {\"10.0.0.9\": {\"endpoints\": [{\"endpoint\": \"10.0.0.1\"}, "
                        + "{\"endpoint\": \"10.0.0.2\"}]}}}");
        assertThatThrownBy(() -> new StaticStatusSource(asHost))
                .hasMessageEndingWith("host 10.0.0.9: the probe reply has no entry for it");
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

    private static Set<Address> hosts(String... texts) {
        return java.util.Arrays.stream(texts).map(Address::parse).collect(java.util.stream.Collectors.toSet());
    }
}
