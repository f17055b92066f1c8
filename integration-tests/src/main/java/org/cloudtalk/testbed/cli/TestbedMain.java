package org.cloudtalk.testbed.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.testbed.Leftovers;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code cloudtalk testbed up|down|status|run|report|exec}: see docs/testbed.md. */
@Command(
        name = "cloudtalk testbed",
        mixinStandardHelpOptions = true,
        versionProvider = Launchers.Version.class,
        description = "An emulated multi-host cloud on this machine, as root (docs/testbed.md).",
        subcommands = {
            TestbedMain.Up.class,
            TestbedMain.Down.class,
            TestbedMain.Status.class,
            RunCommand.class,
            ReportCommand.class,
            TestbedMain.Exec.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:failed (the message says why)",
            "2:an experiment ran, but its outcome or fidelity check failed",
            "64:wrong command line"
        })
public final class TestbedMain implements Runnable {
    /** What a command that fails for a reason of the testbed's own (not a defect) exits with. */
    static final int FAILED = 1;

    final PrintStream out;

    @Spec
    private CommandSpec spec;

    private TestbedMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        CommandLine line = Launchers.commandLine(new TestbedMain(out))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
        // Everything after exec's HOST is the command to run, options included.
        line.getSubcommands().get("exec").setStopAtPositional(true);
        CommandLine.IExecutionExceptionHandler defects = line.getExecutionExceptionHandler();
        line.setExecutionExceptionHandler((e, failed, parseResult) -> {
            if (e instanceof TestbedException failure) {
                failed.getErr().println("cloudtalk testbed: " + e.getMessage());
                failed.getErr().flush();
                return failure.isInvalidValue() ? Launchers.USAGE : FAILED;
            }
            return defects.handleExecutionException(e, failed, parseResult);
        });
        return line.execute(args.toArray(String[]::new));
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed: up, down, status, run, report or exec");
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Brings a testbed up (as root).")
    static final class Up implements Callable<Integer> {
        @ParentCommand
        private TestbedMain main;

        @Mixin
        private TestbedOptions testbed;

        @Mixin
        private RunDirOption runDir;

        @Override
        public Integer call() {
            return up(testbed.config(runDir.path()), main.out);
        }
    }

    private static int up(TestbedConfig config, PrintStream out) {
        long start = System.nanoTime();
        Testbed testbed = Testbed.up(config);
        out.printf(
                "testbed up: %d hosts at %d Mbit/s in %.1f s; state in %s%n",
                testbed.hosts().size(),
                config.rateMbit(),
                (System.nanoTime() - start) / 1e9,
                testbed.runDir().resolve("state.json"));
        return 0;
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description = "Removes exactly what the testbed's state file records (also after a crash).")
    static final class Down implements Callable<Integer> {
        @ParentCommand
        private TestbedMain main;

        @Mixin
        private RunDirOption runDir;

        @Override
        public Integer call() {
            return down(runDir.path(), main.out);
        }
    }

    private static int down(Path runDir, PrintStream out) {
        Testbed testbed = Testbed.attach(runDir)
                .orElseThrow(() -> new TestbedException("no testbed recorded in " + runDir + " (nothing to do)"));
        List<String> removed = testbed.down();
        out.println("testbed down: removed " + removed.size() + " objects");
        String prefix = testbed.config().prefix();
        List<String> left = new ArrayList<>(Leftovers.namespaces(prefix));
        left.addAll(Leftovers.rootLinks(prefix));
        if (!left.isEmpty()) {
            out.println("not recorded by this testbed, left alone: " + left);
        }
        return 0;
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Prints what is up.")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        private TestbedMain main;

        @Mixin
        private RunDirOption runDir;

        @Override
        public Integer call() {
            return status(runDir.path(), main.out);
        }
    }

    private static int status(Path runDir, PrintStream out) {
        Testbed testbed = Testbed.attach(runDir).orElse(null);
        if (testbed == null) {
            out.println("no testbed recorded in " + runDir);
            return 0;
        }
        TestbedState.Snapshot snapshot = testbed.state().snapshot();
        TestbedConfig config = snapshot.config();
        List<String> namespaces = Leftovers.namespaces(config.prefix());
        out.printf(
                "testbed %s: %d hosts, %d Mbit/s per access link%s, core %s, run dir %s%n",
                config.prefix(),
                snapshot.hosts().size(),
                config.rateMbit(),
                config.latencyMs() > 0 ? ", " + config.latencyMs() + " ms latency" : "",
                testbed.coreNamespace(),
                runDir);
        out.println("host  namespace     address        management     up  tx Mbit/s  rx Mbit/s");
        for (Host host : snapshot.hosts()) {
            String use;
            try {
                EndpointStatus s = testbed.daemons().probe(host);
                use = String.format("%9.1f  %9.1f", s.nicTxUseBitsPerSecond() / 1e6, s.nicRxUseBitsPerSecond() / 1e6);
            } catch (IOException | WireException e) {
                use = "  (daemon not answering)";
            }
            out.printf(
                    "%4d  %-12s  %-13s  %-13s  %-3s %s%n",
                    host.index(),
                    host.namespace(),
                    host.address(),
                    host.managementAddress(),
                    namespaces.contains(host.namespace()) ? "yes" : "NO",
                    use);
        }
        if (!snapshot.disks().isEmpty()) {
            out.println("disks (" + snapshot.config().diskMiBps() + " MiB/s each):");
            snapshot.disks().forEach(disk -> out.printf("  %-12s  %s%n", disk.namespace(), disk.mountPoint()));
        }
        out.println("processes:");
        for (StartedProcess process : snapshot.processes()) {
            out.printf(
                    "  %7d  %-5s  %-24s  %s%n",
                    process.pid(),
                    process.handle().isPresent() ? "alive" : "gone",
                    process.role(),
                    process.namespace().isEmpty() ? "(root namespace)" : process.namespace());
        }
        return 0;
    }

    @Command(
            name = "exec",
            mixinStandardHelpOptions = true,
            description = "Runs a command inside host HOST's namespace (everything after HOST is the command).")
    static final class Exec implements Callable<Integer> {
        @Mixin
        private RunDirOption runDir;

        @Parameters(index = "0", paramLabel = "HOST", description = "the host's index")
        private String host;

        @Parameters(
                index = "1..*",
                arity = "1..*",
                paramLabel = "COMMAND",
                description = "the command and its arguments")
        private List<String> command;

        @Override
        public Integer call() {
            return exec(runDir.path(), host, command);
        }
    }

    private static int exec(Path runDir, String host, List<String> args) {
        Testbed testbed = Testbed.attach(runDir)
                .orElseThrow(() -> new TestbedException("no testbed recorded in " + runDir + ": run `up` first"));
        int index;
        try {
            index = Integer.parseInt(host);
        } catch (NumberFormatException e) {
            throw TestbedException.invalidValue(host, "HOST", "a host index");
        }
        List<String> command = new ArrayList<>(
                List.of("ip", "netns", "exec", testbed.host(index).namespace()));
        command.addAll(args);
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new TestbedException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }
}
