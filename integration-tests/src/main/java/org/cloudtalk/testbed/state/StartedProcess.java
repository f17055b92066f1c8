package org.cloudtalk.testbed.state;

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
}
