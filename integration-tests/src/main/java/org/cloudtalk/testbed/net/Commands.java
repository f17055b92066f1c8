package org.cloudtalk.testbed.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.testbed.TestbedException;

/** Runs the short system commands ({@code ip}, {@code tc}, {@code sysctl}) the testbed is built with. */
public final class Commands {
    private static final long TIMEOUT_SECONDS = 30;

    private Commands() {}

    /** Runs {@code command} and returns its output, or throws with the command and its output if it fails. */
    public static String run(String... command) {
        Result result = attempt(command);
        if (result.exit() != 0) {
            throw new TestbedException(String.join(" ", command) + " failed (exit " + result.exit() + "): "
                    + result.output().strip());
        }
        return result.output();
    }

    /** Runs {@code command} inside network namespace {@code namespace}. */
    public static String inNamespace(String namespace, String... command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(List.of(command));
        return run(full.toArray(String[]::new));
    }

    /** Runs {@code command} and reports how it went, for teardown steps that may find nothing to remove. */
    public static Result attempt(String... command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out after " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException(String.join(" ", command) + " interrupted", e);
        }
    }

    /** Whether {@code program} is on the PATH. */
    public static boolean onPath(String program) {
        return attempt("sh", "-c", "command -v " + program).exit() == 0;
    }

    /** A finished command: its exit code and combined output. */
    public record Result(int exit, String output) {}
}
