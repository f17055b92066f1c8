package org.cloudtalk.testbed.fidelity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * The CPU the emulation itself costs, apart from whatever else runs on the machine: user + system time of the
 * testbed's processes plus the machine's softirq time (where forwarding and shaping run), in cores, between
 * {@link #start} and {@link #cores}. On a machine shared with other work this is the figure that says how much of
 * the machine a testbed size needs; the idle share says whether it got it.
 */
public final class EmulatorCpu {
    /** Linux reports process and softirq times in USER_HZ ticks, 100 per second on every mainstream architecture. */
    private static final double TICKS_PER_SECOND = 100;

    private final Collection<StartedProcess> processes;
    private final long startTicks;
    private final long startNanos;

    private EmulatorCpu(Collection<StartedProcess> processes) {
        this.processes = processes;
        this.startTicks = ticks(processes);
        this.startNanos = System.nanoTime();
    }

    public static EmulatorCpu start(Collection<StartedProcess> processes) {
        return new EmulatorCpu(processes);
    }

    /** Cores used on average since {@link #start}. */
    public double cores() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return (ticks(processes) - startTicks) / TICKS_PER_SECOND / seconds;
    }

    private static long ticks(Collection<StartedProcess> processes) {
        long total = softirqTicks();
        for (StartedProcess process : processes) {
            total += processTicks(process.pid());
        }
        return total;
    }

    private static long softirqTicks() {
        try {
            String[] fields =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return Long.parseLong(fields[7]);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** utime + stime of a live process (fields 14 and 15 of /proc/PID/stat, after the command in parentheses). */
    private static long processTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split("\\s+");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException gone) {
            return 0;
        }
    }
}
