package org.cloudtalk.status.sample;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/** Where the kernel's counters are: {@code /sys} and {@code /proc}, or a copy of their layout in tests. */
public record SystemFiles(Path sysfs, Path procfs) {
    public static final SystemFiles LINUX = new SystemFiles(Path.of("/sys"), Path.of("/proc"));

    public SystemFiles {
        requireNonNull(sysfs, "sysfs is null");
        requireNonNull(procfs, "procfs is null");
    }

    Path netInterface(String iface) {
        return sysfs.resolve("class/net").resolve(iface);
    }

    Path netStatistic(String iface, String counter) {
        return netInterface(iface).resolve("statistics").resolve(counter);
    }

    Path netSpeed(String iface) {
        return netInterface(iface).resolve("speed");
    }

    public Path diskstats() {
        return procfs.resolve("diskstats");
    }

    Path mountinfo() {
        return procfs.resolve("self/mountinfo");
    }
}
