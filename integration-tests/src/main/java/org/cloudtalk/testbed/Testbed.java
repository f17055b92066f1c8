package org.cloudtalk.testbed;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Network;
import org.cloudtalk.testbed.proc.Processes;
import org.cloudtalk.testbed.proc.StatusDaemons;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * An emulated cloud on this machine: N hosts as network namespaces behind shaped access links to a routed core, a
 * status daemon in each, and whatever processes experiments start in them. {@link #up} builds one and records it in
 * a state file; {@link #attach} finds it again from another process; {@link #close} (= {@code down}) removes
 * exactly what the state file lists.
 */
public final class Testbed implements AutoCloseable {
    private final TestbedState state;
    private final Processes processes;
    private final StatusDaemons daemons;

    private Testbed(TestbedState state, StatusDaemons daemons) {
        this.state = state;
        this.processes = new Processes(state);
        this.daemons = daemons;
    }

    /** Builds the testbed {@code config} describes; on any failure removes what it had built and rethrows. */
    public static Testbed up(TestbedConfig config) {
        TestbedState state = TestbedState.create(config);
        try {
            Network.build(state);
            if (config.diskMiBps() > 0) {
                Disks.unsupported().ifPresent(reason -> {
                    throw new TestbedException("cannot give the hosts throttled disks: " + reason);
                });
                for (Host host : state.snapshot().hosts()) {
                    Disks.create(state, host, config.diskMiBps());
                }
            }
            return new Testbed(state, StatusDaemons.start(state, new Processes(state)));
        } catch (RuntimeException e) {
            Teardown.down(state);
            throw e;
        }
    }

    /** The testbed recorded under {@code runDir}, if one is up. */
    public static Optional<Testbed> attach(Path runDir) {
        return TestbedState.read(runDir).map(state -> new Testbed(state, StatusDaemons.attach(state)));
    }

    public TestbedConfig config() {
        return state.config();
    }

    public List<Host> hosts() {
        return state.snapshot().hosts();
    }

    public Host host(int index) {
        List<Host> hosts = hosts();
        if (index < 0 || index >= hosts.size()) {
            throw new TestbedException(
                    "Invalid value " + index + " for host: this testbed has hosts 0-" + (hosts.size() - 1));
        }
        return hosts.get(index);
    }

    public String coreNamespace() {
        return Network.coreNamespace(config());
    }

    /** Where load from outside the cluster starts ({@link Network#outsideNamespace}). */
    public String outsideNamespace() {
        return Network.outsideNamespace(config());
    }

    public Path runDir() {
        return state.runDir();
    }

    public Processes processes() {
        return processes;
    }

    public StatusDaemons daemons() {
        return daemons;
    }

    public List<StartedProcess> startedProcesses() {
        return state.snapshot().processes();
    }

    public TestbedState state() {
        return state;
    }

    /** Removes everything; returns what was removed. */
    public List<String> down() {
        return Teardown.down(state);
    }

    @Override
    public void close() {
        down();
    }
}
