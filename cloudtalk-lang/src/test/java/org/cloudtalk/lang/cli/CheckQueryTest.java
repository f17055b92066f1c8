package org.cloudtalk.lang.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckQueryTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void printsCanonicalFormOfValidQueryFromStdin() {
        int exit = run("A=(10.0.0.2 10.0.0.3);f1 A->10.0.0.1 size 256M", "--check", "-");
        assertThat(exit).isEqualTo(0);
        assertThat(stdout()).isEqualTo("A = (10.0.0.2 10.0.0.3)\nf1 A -> 10.0.0.1 size 256M\n");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void readsFileAndPrintsJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.ctq");
        Files.writeString(file, "f1 disk -> 10.0.0.1 size 1K\n");
        int exit = run("", "--check", "--json", file.toString());
        assertThat(exit).isEqualTo(0);
        assertThat(stdout())
                .isEqualTo("{\"variables\":[],\"flows\":[{\"position\":1,\"name\":\"f1\","
                        + "\"source\":{\"kind\":\"disk\",\"text\":\"disk\"},"
                        + "\"destination\":{\"kind\":\"host\",\"text\":\"10.0.0.1\"},"
                        + "\"attributes\":{\"size\":{\"kind\":\"number\",\"number\":1,\"unit\":\"K\",\"value\":1024}},"
                        + "\"line\":1,\"column\":1}]}\n");
    }

    @Test
    void printsEachErrorToStderrAndExits2() {
        int exit = run("A = ()\nf1 B -> 10.0.0.1", "--check");
        assertThat(exit).isEqualTo(CheckQuery.QUERY_ERROR);
        assertThat(stdout()).isEmpty();
        assertThat(stderr())
                .isEqualTo(
                        "line 1:1: variable 'A' has no candidate values\n"
                                + "line 2:4: 'B' is not a declared variable (an endpoint is a variable, an IP address or disk)\n");
    }

    /** A file that is not UTF-8 is said to be so, where it stops being UTF-8 (not as an odd character). */
    @Test
    void textThatIsNotUtf8IsRefusedAtItsPlace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("latin1.ctq");
        Files.write(file, "f1 10.0.0.1 -> 10.0.0.2\nf2 caf\u00e9 -> 10.0.0.1\n".getBytes(StandardCharsets.ISO_8859_1));
        int exit = run("", "--check", file.toString());
        assertThat(exit).isEqualTo(CheckQuery.QUERY_ERROR);
        assertThat(stderr()).isEqualTo("line 2:7: not valid UTF-8 text (byte 30 of the query)\n");
    }

    @Test
    void jsonModeAlsoReportsErrorsAsJson() {
        int exit = run("f1 10.0.0.1 -> 10.0.0.1", "--check", "--json");
        assertThat(exit).isEqualTo(CheckQuery.QUERY_ERROR);
        assertThat(stdout())
                .isEqualTo("{\"errors\":[{\"code\":\"SAME_ENDPOINT\",\"message\":\"flow f1 goes from 10.0.0.1 to "
                        + "itself\",\"line\":1,\"column\":1}]}\n");
    }

    @Test
    void missingFileAndBadArgumentsAreNotQueryErrors() {
        assertThat(run("", "--check", "/nonexistent/q.ctq")).isEqualTo(CheckQuery.NO_INPUT);
        assertThat(stderr()).isEqualTo("ctquery: no such file: /nonexistent/q.ctq\n");
        assertThat(run("", "--check", "--frobnicate")).isEqualTo(CheckQuery.USAGE);
    }

    @Test
    void oversizedStdinIsAQueryErrorNotAnOutOfMemoryError() {
        byte[] huge = new byte[5 << 20];
        java.util.Arrays.fill(huge, (byte) '#');
        int exit = CheckQuery.run(
                new String[] {"--check"},
                new ByteArrayInputStream(huge),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(CheckQuery.QUERY_ERROR);
        assertThat(stderr()).startsWith("line 1:1: query is more than 1048576 characters long, the limit is 1048576");
    }

    private int run(String stdin, String... args) {
        out.reset();
        err.reset();
        return CheckQuery.run(
                args,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
