package org.cloudtalk.testbed.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A process the testbed started: its PID and start time (so that teardown never signals a different process that
 * reused the PID), what it is, where it runs ({@code namespace} empty = the root namespace) and its log.
 */
public record StartedProcess(long pid, long startMillis, String role, String namespace, String log) {
    /** The live process, if it is still the one the testbed started. */
    public Optional<ProcessHandle> handle() {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> h.info()
                .startInstant()
                .map(start -> Math.abs(start.toEpochMilli() - startMillis) < 2000)
                .orElse(false));
    }

    /** The last lines of the process's log, for error messages. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(Path.of(log));
            return "last lines of " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "see " + log;
        }
    }
}
