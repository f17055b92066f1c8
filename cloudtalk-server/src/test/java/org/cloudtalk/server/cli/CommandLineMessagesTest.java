package org.cloudtalk.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.cloudtalk.common.cli.Launchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees from the server's command line: help, one-line errors in the user's words. */
class CommandLineMessagesTest {
    @Test
    void serverHelpAndFileErrorsNameTheKey(@TempDir Path temp) {
        Run help = server("--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("Usage: cloudtalk server").contains("--status-file");
        Path missing = temp.resolve("missing.key");
        Run noKey = server("--port", "0", "--key-file", missing.toString());
        assertThat(noKey.exit).isEqualTo(Launchers.CONFIG);
        assertThat(noKey.err)
                .isEqualTo("cloudtalk server: Invalid value " + missing + " for status.key.file: no such file\n");
        Run noStatus = server(
                "--port", "0", "--status-file", temp.resolve("status.json").toString());
        assertThat(noStatus.exit).isEqualTo(Launchers.CONFIG);
        assertThat(noStatus.err)
                .isEqualTo("cloudtalk server: Invalid value " + temp.resolve("status.json")
                        + " for status.file: no such file\n");
        Run badPort = server("--port", "abc", "--status-file", "x");
        assertThat(badPort.exit).isEqualTo(Launchers.CONFIG);
        assertThat(badPort.err).isEqualTo("cloudtalk server: Invalid value abc for port: not a whole number\n");
        Run emptyPort = server("--port", "", "--status-file", "x");
        assertThat(emptyPort.exit).isEqualTo(Launchers.CONFIG);
        assertThat(emptyPort.err)
                .isEqualTo("cloudtalk server: Invalid value '' for port: empty (leave the flag out for the default)\n");
    }

    private record Run(int exit, String out, String err) {}

    private static Run server(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Launchers.commandLine(new ServerMain())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
