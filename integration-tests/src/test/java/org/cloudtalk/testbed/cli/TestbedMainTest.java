package org.cloudtalk.testbed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad command lines get one clear line and an exit code, before anything is built. */
class TestbedMainTest {
    @TempDir
    Path runDir;

    @Test
    void badInputIsRejectedWithAClearMessage() {
        assertError(List.of("up", "--hosts", "x"), 64, "Invalid value x for --hosts: not a whole number");
        assertError(List.of("up", "--hosts", "1"), 64, "Invalid value 1 for --hosts: must be between 2 and 250");
        assertError(List.of("up", "--rate", "0"), 64, "Invalid value 0 for --rate: must be between 1 and 10000 Mbit/s");
        assertError(List.of("up", "--subnet", "9"), 64, "Invalid value 9 for --subnet: must be between 16 and 250");
        assertError(List.of("up", "--colour", "red"), 64, "Unknown options: '--colour', 'red'");
        assertError(
                List.of("run", "nope"),
                64,
                "Invalid value nope for EXPERIMENT: unknown experiment (known: status-accuracy, query-under-load");
        for (String busy : List.of("1.5", "NaN", "0.1,", ",", "0.5d")) {
            assertError(
                    List.of("run", "status-accuracy", "--busy", busy),
                    64,
                    "Invalid value " + busy + " for --busy: expected fractions in (0, 1]");
        }
        assertError(
                List.of("run", "status-accuracy", "--busy", "0.5,0.5"),
                64,
                "Invalid value 0.5,0.5 for --busy: 0.5 is given twice");
        assertError(
                List.of("run", "hdfs-write", "--cloudtalk-setting", "cloudtalk.deadline.ms"),
                64,
                "Invalid value cloudtalk.deadline.ms for --cloudtalk-setting: expected KEY=VALUE");
        assertError(
                List.of("run", "hdfs-write", "--cloudtalk-setting", "=5"),
                64,
                "Invalid value =5 for --cloudtalk-setting: expected KEY=VALUE");
        assertError(
                List.of("run", "reduce-placement", "--first-repeat", "-1"),
                64,
                "Invalid value -1 for --first-repeat: must be between 0 and 1000");
        // What an experiment needs of its testbed is refused before one is brought up (the run directory is empty).
        String dir = runDir.toString();
        assertError(
                List.of("run", "hdfs-disk", "--run-dir", dir),
                64,
                "Invalid value 0 for --disk-rate: hdfs-disk needs a disk per host");
        assertError(
                List.of("run", "solr-replicas", "--hosts", "3", "--run-dir", dir),
                64,
                "Invalid value 3 for --hosts: solr-replicas with 4 shards needs 9");
        assertError(
                List.of("run", "incast", "--latency", "5", "--run-dir", dir),
                64,
                "Invalid value 5 for --latency: incast compares with a simulated switch port");
        assertError(
                List.of("run", "incast", "--run-dir", dir, "--out", "/proc/version/results"),
                64,
                "Invalid value /proc/version/results for --out: cannot create the directory");
        assertError(List.of("launch"), 64, "Unmatched argument at index 0: 'launch'");
        assertError(List.of(), 64, "a command is needed: up, down, status, run, report or exec");
        assertError(List.of("exec", "--run-dir", runDir.toString(), "0"), 64, "Missing required parameter");
        assertError(List.of("down", "--run-dir", runDir.toString()), 1, "no testbed recorded in " + runDir);
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : List.of("up", "down", "status", "run", "exec")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = TestbedMain.run(
                    List.of(command, "--help"),
                    new PrintStream(out, true),
                    new PrintStream(new ByteArrayOutputStream(), true));
            assertThat(exit).as(command).isZero();
            assertThat(out.toString()).as(command).contains("Usage: cloudtalk testbed " + command);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(TestbedMain.run(List.of("--help"), new PrintStream(out, true), new PrintStream(out, true)))
                .isZero();
        assertThat(out.toString()).contains("up", "down", "status", "run", "exec", "Exit codes:");
        out.reset();
        TestbedMain.run(List.of("run", "--help"), new PrintStream(out, true), new PrintStream(out, true));
        assertThat(out.toString())
                .contains("status-accuracy", "query-under-load", "sampling-300", "capacity", "hdfs-write");
    }

    @Test
    void statusWithoutATestbedSaysSo() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = TestbedMain.run(
                List.of("status", "--run-dir", runDir.toString()),
                new PrintStream(out, true),
                new PrintStream(new ByteArrayOutputStream(), true));
        assertThat(exit).isZero();
        assertThat(out.toString()).contains("no testbed recorded in " + runDir);
    }

    /** A state file that is not one: a line saying so, not Jackson's two. */
    @Test
    void aStateFileThatIsNotOneIsOneLine() throws Exception {
        java.nio.file.Files.writeString(runDir.resolve("state.json"), "{\"config\": [garbage");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = TestbedMain.run(
                List.of("status", "--run-dir", runDir.toString()),
                new PrintStream(new ByteArrayOutputStream(), true),
                new PrintStream(err, true));

        assertThat(exit).isNotZero();
        assertThat(err.toString())
                .contains("cannot read state file " + runDir.resolve("state.json") + ": not a testbed's state (")
                .contains("if no testbed is up, remove it");
        assertThat(err.toString().strip()).doesNotContain("\n");
    }

    private void assertError(List<String> args, int code, String message) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit =
                TestbedMain.run(args, new PrintStream(new ByteArrayOutputStream(), true), new PrintStream(err, true));
        assertThat(exit).as(String.join(" ", args)).isEqualTo(code);
        assertThat(err.toString()).as(String.join(" ", args)).contains(message);
    }
}
