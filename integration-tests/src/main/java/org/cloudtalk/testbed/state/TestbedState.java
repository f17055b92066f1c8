package org.cloudtalk.testbed.state;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.disk.HostDisk;
import org.cloudtalk.testbed.net.Host;

/**
 * The state file of one testbed ({@code RUN_DIR/state.json}): its configuration, its hosts, and every namespace,
 * root-namespace link, process, disk and data directory it created, each written down <em>before</em> it is created so that {@code down}
 * finds it even after a crash halfway through {@code up}.
 *
 * <p>Concurrency: every method is synchronized on this object; each change is written to disk before it returns.
 */
public final class TestbedState {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String FILE_NAME = "state.json";

    private final Path file;
    private Snapshot snapshot;
    /** Set once a teardown has taken its snapshot: what is added after it would outlive the testbed. */
    private boolean tornDown;

    private TestbedState(Path file, Snapshot snapshot) {
        this.file = file;
        this.snapshot = snapshot;
    }

    /** Starts a new state file for {@code config}; refuses if one is already there (a testbed is up or left over). */
    public static TestbedState create(TestbedConfig config) {
        Path file = config.runDir().resolve(FILE_NAME);
        if (Files.exists(file)) {
            throw new TestbedException("a testbed is already recorded in " + file + ": run `testbed down` first");
        }
        try {
            Files.createDirectories(config.runDir().resolve("logs"));
        } catch (IOException e) {
            throw new TestbedException("cannot create run directory " + config.runDir() + ": " + e.getMessage(), e);
        }
        TestbedState state = new TestbedState(
                file,
                new Snapshot(
                        config,
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        System.currentTimeMillis()));
        state.save();
        return state;
    }

    /** Reads the state file under {@code runDir}, if there is one. */
    public static java.util.Optional<TestbedState> read(Path runDir) {
        Path file = runDir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(new TestbedState(file, JSON.readValue(file.toFile(), Snapshot.class)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // One line: Jackson's own message runs over two and names its settings.
            throw new TestbedException(
                    "cannot read state file " + file + ": not a testbed's state ("
                            + e.getOriginalMessage().replaceAll("\\s+", " ") + "); if no testbed is up, remove it",
                    e);
        } catch (IOException e) {
            throw new TestbedException("cannot read state file " + file + ": " + e.getMessage(), e);
        }
    }

    public synchronized Snapshot snapshot() {
        return snapshot;
    }

    /**
     * What a teardown removes; from now on every add is refused, so nothing another thread starts while the
     * teardown runs (a run stopped by TERM halfway through starting its load) is left behind unrecorded.
     */
    public synchronized Snapshot beginTeardown() {
        tornDown = true;
        return snapshot;
    }

    public TestbedConfig config() {
        return snapshot().config();
    }

    public Path runDir() {
        return file.getParent();
    }

    public synchronized void addHost(Host host) {
        refuseIfTornDown("host " + host.address());
        snapshot = snapshot.with(
                append(snapshot.hosts(), host),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                snapshot.processes(),
                snapshot.disks(),
                snapshot.directories());
        save();
    }

    public synchronized void addNamespace(String namespace) {
        refuseIfTornDown("namespace " + namespace);
        snapshot = snapshot.with(
                snapshot.hosts(),
                append(snapshot.namespaces(), namespace),
                snapshot.rootLinks(),
                snapshot.processes(),
                snapshot.disks(),
                snapshot.directories());
        save();
    }

    public synchronized void addRootLink(String link) {
        refuseIfTornDown("link " + link);
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                append(snapshot.rootLinks(), link),
                snapshot.processes(),
                snapshot.disks(),
                snapshot.directories());
        save();
    }

    public synchronized void addProcess(StartedProcess process) {
        refuseIfTornDown("process " + process.pid() + " (" + process.role() + ")");
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                append(snapshot.processes(), process),
                snapshot.disks(),
                snapshot.directories());
        save();
    }

    public synchronized void removeProcess(long pid) {
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                snapshot.processes().stream().filter(p -> p.pid() != pid).toList(),
                snapshot.disks(),
                snapshot.directories());
        save();
    }

    public synchronized void addDisk(HostDisk disk) {
        refuseIfTornDown("the disk of " + disk.namespace());
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                snapshot.processes(),
                append(snapshot.disks(), disk),
                snapshot.directories());
        save();
    }

    /**
     * Records a directory that {@code down} deletes with everything in it (after stopping the processes that write
     * there): the data of the processes an experiment starts, so a crashed run leaves nothing behind either.
     */
    public synchronized void addDirectory(Path directory) {
        refuseIfTornDown("directory " + directory);
        String path = directory.toAbsolutePath().normalize().toString();
        if (snapshot.directories().contains(path)) {
            return;
        }
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                snapshot.processes(),
                snapshot.disks(),
                append(snapshot.directories(), path));
        save();
    }

    /** Forgets a directory that its owner has deleted. */
    public synchronized void removeDirectory(Path directory) {
        String path = directory.toAbsolutePath().normalize().toString();
        snapshot = snapshot.with(
                snapshot.hosts(),
                snapshot.namespaces(),
                snapshot.rootLinks(),
                snapshot.processes(),
                snapshot.disks(),
                snapshot.directories().stream().filter(d -> !d.equals(path)).toList());
        save();
    }

    /** Deletes the state file: everything it listed is gone. */
    public synchronized void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void refuseIfTornDown(String added) {
        if (tornDown) {
            throw new TestbedException("the testbed is going down: " + added + " is not added");
        }
    }

    private static <T> List<T> append(List<T> list, T value) {
        List<T> copy = new ArrayList<>(list);
        copy.add(requireNonNull(value, "value is null"));
        return List.copyOf(copy);
    }

    private void save() {
        Path temp = file.resolveSibling(FILE_NAME + ".tmp");
        try {
            JSON.writeValue(temp.toFile(), snapshot);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TestbedException("cannot write state file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The state file's content. */
    public record Snapshot(
            TestbedConfig config,
            List<Host> hosts,
            List<String> namespaces,
            List<String> rootLinks,
            List<StartedProcess> processes,
            List<HostDisk> disks,
            List<String> directories,
            long createdMillis) {
        public Snapshot {
            hosts = List.copyOf(hosts);
            namespaces = List.copyOf(namespaces);
            rootLinks = List.copyOf(rootLinks);
            processes = List.copyOf(processes);
            // State files written before disks and directories were recorded have neither.
            disks = disks == null ? List.of() : List.copyOf(disks);
            directories = directories == null ? List.of() : List.copyOf(directories);
        }

        Snapshot with(
                List<Host> newHosts,
                List<String> newNamespaces,
                List<String> newRootLinks,
                List<StartedProcess> newProcesses,
                List<HostDisk> newDisks,
                List<String> newDirectories) {
            return new Snapshot(
                    config,
                    newHosts,
                    newNamespaces,
                    newRootLinks,
                    newProcesses,
                    newDisks,
                    newDirectories,
                    createdMillis);
        }
    }
}
