package org.cloudtalk.testbed.proc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * Starts processes inside emulated hosts (or, for the control plane, in the root namespace), each with its output
 * in {@code RUN_DIR/logs/ROLE.log}, and records each one's PID and start time in the state file, so that
 * {@code down} stops exactly these processes and nothing else.
 */
public final class Processes {
    private final TestbedState state;

    public Processes(TestbedState state) {
        this.state = state;
    }

    /**
     * Starts {@code java -Xmx<heap> ... mainClass args} in {@code host} (empty: the root namespace) with this JVM's
     * classpath; {@code role} names its log and its line in {@code status}.
     */
    public StartedProcess startJava(
            Optional<Host> host,
            String role,
            String heap,
            String mainClass,
            List<String> jvmOptions,
            List<String> args) {
        return startJava(host, role, heap, System.getProperty("java.class.path"), mainClass, jvmOptions, args);
    }

    /**
     * Starts {@code java -Xmx<heap> ... -cp classpath mainClass args} in {@code host} (empty: the root namespace), for
     * JVMs that must not see the testbed's own class path (Hadoop's daemons bring their own).
     */
    public StartedProcess startJava(
            Optional<Host> host,
            String role,
            String heap,
            String classpath,
            String mainClass,
            List<String> jvmOptions,
            List<String> args) {
        if (!heap.matches("\\d+[mg]")) {
            throw new TestbedException("Invalid value " + heap + " for heap: expected e.g. 64m or 1g");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(args);
        return start(host, role, command);
    }

    /** Starts {@code command} in {@code host} (empty: the root namespace). */
    public StartedProcess start(Optional<Host> host, String role, List<String> command) {
        return startInNamespace(host.map(Host::namespace).orElse(""), role, command);
    }

    /**
     * Starts {@code command} in the network namespace {@code namespace} (empty: the root namespace), e.g. the
     * testbed's outside namespace, whose traffic towards a host crosses only that host's download shaper.
     */
    public StartedProcess startInNamespace(String namespace, String role, List<String> command) {
        if (!role.matches("[A-Za-z0-9._-]+")) {
            throw new TestbedException("Invalid value " + role + " for role: letters, digits, '.', '_' or '-'");
        }
        List<String> full = new ArrayList<>();
        // Its own session: a Ctrl-C meant for the launcher does not reach the testbed's processes. setsid and
        // `ip netns exec` both exec in place, so the PID we record is the process itself.
        if (Commands.onPath("setsid")) {
            full.add("setsid");
        }
        if (!namespace.isEmpty()) {
            full.addAll(List.of("ip", "netns", "exec", namespace));
        }
        full.addAll(command);
        Path log = state.runDir().resolve("logs").resolve(role + ".log");
        try {
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
            long startMillis = process.info()
                    .startInstant()
                    .map(java.time.Instant::toEpochMilli)
                    .orElse(System.currentTimeMillis());
            StartedProcess started = new StartedProcess(process.pid(), startMillis, role, namespace, log.toString());
            try {
                state.addProcess(started);
            } catch (TestbedException refused) {
                // The testbed went down while this started: nothing will stop it but this.
                terminate(started);
                throw refused;
            }
            return started;
        } catch (IOException e) {
            throw new TestbedException(
                    "cannot start " + role + " (" + String.join(" ", full) + "): " + e.getMessage(), e);
        }
    }

    /**
     * Waits up to {@code timeout} for {@code what} ({@code process}, a program that ends by itself) to end, then
     * stops and forgets it; one still running then is stopped and reported with the end of its log.
     */
    public void awaitExit(StartedProcess process, String what, Duration timeout) {
        try {
            Optional<ProcessHandle> handle = process.handle();
            if (handle.isPresent()) {
                handle.get().onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (TimeoutException e) {
            throw new TestbedException(
                    what + " did not finish within " + timeout.toSeconds() + " s: " + process.logTail());
        } catch (ExecutionException e) {
            throw new TestbedException("cannot wait for " + process.role() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        } finally {
            stop(process);
        }
    }

    /** Stops {@code process} (TERM, then KILL after 5 s) if it is still the one started, and forgets it. */
    public void stop(StartedProcess process) {
        terminate(process);
        state.removeProcess(process.pid());
    }

    /** Stops {@code process} and its descendants if it is still the one the testbed started. */
    public static void terminate(StartedProcess process) {
        process.handle().ifPresent(handle -> {
            List<ProcessHandle> descendants = handle.descendants().toList();
            handle.destroy();
            descendants.forEach(ProcessHandle::destroy);
            try {
                handle.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception stillAlive) {
                handle.destroyForcibly();
            }
            descendants.forEach(ProcessHandle::destroyForcibly);
        });
    }
}
