package org.cloudtalk.testbed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.cloudtalk.testbed.disk.Disks;
import org.cloudtalk.testbed.disk.HostDisk;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.proc.Processes;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes exactly what a state file lists: its processes (by PID and start time, never by name), then the data
 * directories they wrote (some live on the hosts' disks), then its disks (mount, throttle, loop device, file), then
 * its namespaces (which takes their veths and qdiscs with them), then its
 * root-namespace links.
 */
public final class Teardown {
    private static final Logger LOG = LoggerFactory.getLogger(Teardown.class);

    private Teardown() {}

    /** Removes everything {@code state} lists and deletes the state file; returns one line per object removed. */
    public static List<String> down(TestbedState state) {
        TestbedState.Snapshot snapshot = state.beginTeardown();
        List<String> removed = new ArrayList<>();
        for (StartedProcess process : reversed(snapshot.processes())) {
            if (process.handle().isPresent()) {
                Processes.terminate(process);
                removed.add("process " + process.pid() + " (" + process.role() + ")");
            }
        }
        for (String directory : reversed(snapshot.directories())) {
            // One directory that cannot go (a process still writing, a busy mount) must not keep the disks, links
            // and namespaces; what is left shows in the leftovers check.
            try {
                if (Directories.deleteRecursively(Path.of(directory))) {
                    removed.add("directory " + directory);
                }
            } catch (RuntimeException e) {
                LOG.warn("cannot remove {}: {}", directory, e.getMessage());
            }
        }
        for (HostDisk disk : snapshot.disks()) {
            removed.addAll(Disks.remove(disk));
        }
        for (String namespace : reversed(snapshot.namespaces())) {
            if (Commands.attempt("ip", "netns", "del", namespace).exit() == 0) {
                removed.add("namespace " + namespace);
            }
        }
        // Deleting a namespace deletes its veths, management peers in the root namespace included.
        for (String link : snapshot.rootLinks()) {
            if (Commands.attempt("ip", "link", "del", link).exit() == 0) {
                removed.add("link " + link);
            }
        }
        String prefix = snapshot.config().prefix();
        List<String> left = new ArrayList<>(Leftovers.namespaces(prefix));
        left.retainAll(snapshot.namespaces());
        List<String> links = new ArrayList<>(Leftovers.rootLinks(prefix));
        links.retainAll(snapshot.rootLinks());
        left.addAll(links);
        snapshot.processes().stream().filter(p -> p.handle().isPresent()).forEach(p -> left.add("process " + p.pid()));
        snapshot.disks().forEach(disk -> left.addAll(Disks.leftovers(disk)));
        snapshot.directories().stream()
                .filter(directory -> Files.exists(Path.of(directory)))
                .forEach(directory -> left.add("directory " + directory));
        if (!left.isEmpty()) {
            throw new TestbedException("could not remove " + left + "; the state file is kept for another `down`");
        }
        state.delete();
        return removed;
    }

    // Stop what was started last first: load before the daemons it loads, hosts before the core.
    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }
}
