package org.cloudtalk.testbed.fidelity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the machine's CPU idle share (idle + iowait over all jiffies, from the first line of /proc/stat) every
 * {@code intervalMillis} on a thread of its own, from {@link #start} until {@link #close}. User time at a positive
 * nice value counts as idle too: the testbed's processes run at nice 0, so work started with {@code nice -n 19}
 * (a build next to a run) gets about 1.5% of a core they want, and the rest of its time was theirs for the taking.
 *
 * <p>Concurrency: the sampling thread appends to {@code shares} and updates {@code last} under this object's lock;
 * readers take the same lock.
 */
public final class CpuIdleSampler implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "cpu-idle-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Double> shares = new ArrayList<>();
    private long[] last;

    private CpuIdleSampler() {}

    public static CpuIdleSampler start(long intervalMillis) {
        CpuIdleSampler sampler = new CpuIdleSampler();
        sampler.last = read();
        sampler.timer.scheduleAtFixedRate(sampler::sample, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        return sampler;
    }

    /** The idle shares of every interval so far, each in [0, 1]. */
    public synchronized List<Double> shares() {
        return List.copyOf(shares);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private synchronized void sample() {
        long[] now = read();
        long total = now[0] - last[0];
        if (total > 0) {
            shares.add((now[1] - last[1]) / (double) total);
        }
        last = now;
    }

    /** {total, idle + iowait + nice} jiffies since boot. */
    private static long[] read() {
        try {
            String[] fields =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            // user nice system idle iowait irq softirq steal (guest time is already counted in user)
            for (int i = 1; i <= 8 && i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            long available = Long.parseLong(fields[2]) + Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new long[] {total, available};
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
