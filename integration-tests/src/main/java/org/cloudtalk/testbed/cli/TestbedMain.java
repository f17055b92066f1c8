package org.cloudtalk.testbed.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.status.wire.WireException;
import org.cloudtalk.testbed.Leftovers;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * {@code cloudtalk testbed up|down|status|run|exec}: see docs/testbed.md. Exit codes: 0 done, 1 failed (message on
 * stderr), 2 an experiment ran but its outcome or fidelity check failed, 64 usage.
 */
public final class TestbedMain {
    static final String USAGE = String.join(
            "\n",
            "usage: cloudtalk testbed up [--hosts N] [--rate MBIT] [--latency MS] [--prefix P] [--run-dir DIR]",
            "       cloudtalk testbed down [--run-dir DIR]",
            "       cloudtalk testbed status [--run-dir DIR]",
            "       cloudtalk testbed exec [--run-dir DIR] HOST COMMAND...",
            "       cloudtalk testbed run EXPERIMENT [--repeat K] [--busy 0.1,0.5] [--seconds S] [--out DIR]"
                    + " [--hosts N] [--rate MBIT] [--run-dir DIR]",
            "experiments: " + String.join(", ", Experiments.names()));

    private TestbedMain() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 64;
        }
        List<String> rest = args.subList(1, args.size());
        try {
            return switch (args.get(0)) {
                case "up" -> up(Options.parse(rest, Set.of("hosts", "rate", "latency", "prefix", "run-dir")), out);
                case "down" -> down(Options.parse(rest, Set.of("run-dir")), out);
                case "status" -> status(Options.parse(rest, Set.of("run-dir")), out);
                case "exec" -> exec(Options.parseUntilCommand(rest, Set.of("run-dir")));
                case "run" -> RunCommand.run(
                        Options.parse(rest, Set.of("repeat", "busy", "seconds", "out", "hosts", "rate", "run-dir")),
                        out);
                case "-h", "--help" -> {
                    out.println(USAGE);
                    yield 0;
                }
                default -> {
                    err.println("cloudtalk testbed: unknown command " + args.get(0) + "\n" + USAGE);
                    yield 64;
                }
            };
        } catch (TestbedException e) {
            err.println("cloudtalk testbed: " + e.getMessage());
            return 1;
        }
    }

    static TestbedConfig config(Options options) {
        TestbedConfig defaults = TestbedConfig.defaults();
        return new TestbedConfig(
                options.text("prefix", defaults.prefix()),
                options.number("hosts", defaults.hosts()),
                options.number("rate", defaults.rateMbit()),
                options.number("latency", 0),
                defaults.subnet(),
                runDir(options));
    }

    static Path runDir(Options options) {
        return Path.of(options.text("run-dir", TestbedConfig.DEFAULT_RUN_DIR.toString()));
    }

    private static int up(Options options, PrintStream out) {
        TestbedConfig config = config(options);
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

    private static int down(Options options, PrintStream out) {
        Path runDir = runDir(options);
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

    private static int status(Options options, PrintStream out) {
        Path runDir = runDir(options);
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

    private static int exec(Options options) {
        if (options.positional().size() < 2) {
            throw new TestbedException("exec needs a host index and a command, e.g. `exec 0 ip addr`");
        }
        Path runDir = runDir(options);
        Testbed testbed = Testbed.attach(runDir)
                .orElseThrow(() -> new TestbedException("no testbed recorded in " + runDir + ": run `up` first"));
        int index;
        try {
            index = Integer.parseInt(options.positional().get(0));
        } catch (NumberFormatException e) {
            throw new TestbedException("Invalid value " + options.positional().get(0) + " for HOST: a host index");
        }
        List<String> command = new ArrayList<>(
                List.of("ip", "netns", "exec", testbed.host(index).namespace()));
        command.addAll(options.positional().subList(1, options.positional().size()));
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
