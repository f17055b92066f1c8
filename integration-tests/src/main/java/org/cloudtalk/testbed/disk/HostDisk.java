package org.cloudtalk.testbed.disk;

import static java.util.Objects.requireNonNull;

/**
 * One host's throttled disk as the state file records it: the file backing its loop device and the directory it is
 * mounted on (the host's data directory). The loop device itself is found again from the backing file, so a crash
 * between {@code losetup} and the next state write loses nothing.
 */
public record HostDisk(String namespace, String backingFile, String mountPoint) {
    public HostDisk {
        requireNonNull(namespace, "namespace is null");
        requireNonNull(backingFile, "backingFile is null");
        requireNonNull(mountPoint, "mountPoint is null");
    }
}
