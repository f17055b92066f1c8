package org.cloudtalk.status.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cloudtalk.common.cli.Launchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an operator sees from the daemon's and the probe's command lines: help, versions, one-line errors. */
class LauncherMessagesTest {
    @Test
    void daemonHelpAndVersionExitZero() {
        Run help = daemon("--help");
        assertThat(help.exit).isZero();
        assertThat(help.out)
                .contains("Usage: cloudtalk status-daemon")
                .contains("--key-file")
                .contains("Exit codes:");
        Run version = daemon("-V");
        assertThat(version.exit).isZero();
        assertThat(version.out).containsPattern("CloudTalk \\d+\\.\\d+\\.\\d+");
    }

    @Test
    void daemonUsageAndConfigErrorsAreOneLine(@TempDir Path temp) {
        Run unknown = daemon("--bogus");
        assertThat(unknown.exit).isEqualTo(Launchers.USAGE);
        assertThat(unknown.err).startsWith("cloudtalk status-daemon: Unknown option: '--bogus'");
        Run badPort =
                daemon("--port", "http", "--key-file", temp.resolve("none").toString(), "--endpoints", "127.0.0.1");
        assertThat(badPort.exit).isEqualTo(Launchers.CONFIG);
        assertThat(badPort.err).isEqualTo("status-daemon: Invalid value http for port: not a whole number\n");
        Run blankEndpoints =
                daemon("--endpoints", " ", "--key-file", temp.resolve("none").toString());
        assertThat(blankEndpoints.exit).isEqualTo(Launchers.CONFIG);
        assertThat(blankEndpoints.err)
                .isEqualTo("status-daemon: Invalid value ' ' for endpoints: empty (leave the flag out for the"
                        + " default)\n");
        Run noKey = daemon("--key-file", temp.resolve("none").toString(), "--endpoints", "127.0.0.1");
        assertThat(noKey.exit).isEqualTo(Launchers.CONFIG);
        assertThat(noKey.err)
                .isEqualTo("status-daemon: Invalid value " + temp.resolve("none")
                        + " for key.file: cannot read it (no such file)\n");
    }

    @Test
    void probeHelpAndErrors(@TempDir Path temp) throws Exception {
        Run help = probe("--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("Usage: cloudtalk status probe").contains("HOST:PORT");
        Run missingKey = probe("127.0.0.1:7450");
        assertThat(missingKey.exit).isEqualTo(Launchers.USAGE);
        assertThat(missingKey.err).contains("Missing required option: '--key-file=FILE'");
        Run noSuchKey =
                probe("127.0.0.1:7450", "--key-file", temp.resolve("none").toString());
        assertThat(noSuchKey.exit).isEqualTo(Launchers.CONFIG);
        assertThat(noSuchKey.err)
                .isEqualTo("status probe: Invalid value " + temp.resolve("none") + " for --key-file: no such file\n");
        Path key = temp.resolve("key");
        Files.writeString(key, "loopback-test-key-0123456789");
        Run badTarget = probe("localhost", "--key-file", key.toString());
        assertThat(badTarget.exit).isEqualTo(Launchers.USAGE);
        assertThat(badTarget.err).startsWith("cloudtalk status probe: Invalid value localhost for HOST:PORT");
        Run badTimeout = probe("127.0.0.1:7450", "--key-file", key.toString(), "--timeout-ms", "abc");
        assertThat(badTimeout.exit).isEqualTo(Launchers.USAGE);
        assertThat(badTimeout.err).contains("'abc' is not an int").doesNotContain("Exception");
        List<String> tooMany = new ArrayList<>(List.of("127.0.0.1:7450", "--key-file", key.toString()));
        for (int i = 1; i <= 25; i++) {
            tooMany.addAll(List.of("--endpoint", "127.0.0." + i));
        }
        Run tooManyEndpoints = probe(tooMany.toArray(String[]::new));
        assertThat(tooManyEndpoints.exit).isEqualTo(Launchers.USAGE);
        assertThat(tooManyEndpoints.err).contains("at most 24 --endpoint per probe (one request), not 25");
    }

    private record Run(int exit, String out, String err) {}

    private static Run daemon(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Launchers.commandLine(new StatusDaemonMain())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static Run probe(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = StatusProbe.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
