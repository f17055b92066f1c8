package org.cloudtalk.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.proc.Processes;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A teardown without namespaces: processes of the root namespace, recorded in a state file of their own. */
class TeardownTest {
    @Test
    void aProcessStartedOnceTheTeardownBeganIsStoppedAndRefused(@TempDir Path runDir) {
        TestbedState state = TestbedState.create(TestbedLifecycleTest.config(runDir, 2, 10));
        Processes processes = new Processes(state);
        StartedProcess before = processes.start(Optional.empty(), "before", List.of("sleep", "60"));

        assertThat(Teardown.down(state)).containsExactly("process " + before.pid() + " (before)");

        // As a run's thread starting its load while a TERM's hook takes the testbed down.
        assertThatThrownBy(() -> processes.start(Optional.empty(), "late", List.of("sleep", "60")))
                .isInstanceOf(TestbedException.class)
                .hasMessageStartingWith("the testbed is going down: process ")
                .hasMessageEndingWith(" (late) is not added");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
                .isEmpty();
        assertThat(runDir.resolve("state.json")).doesNotExist();
    }
}
