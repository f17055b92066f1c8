package org.cloudtalk.server.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How late this machine wakes a sleeping thread while a test runs: a thread that sleeps 5 ms at a time and records
 * the largest overshoot. The server cannot answer sooner than the OS lets its event loop run, so tests of "within 50
 * ms of the deadline" allow 50 ms plus this (zero on a quiet machine; other builds share the test machine).
 *
 * <p>Concurrency: the probe thread writes the maximum atomically; {@link #close} stops it and waits for it.
 */
public final class SchedulingProbe implements AutoCloseable {
    private static final long NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final AtomicLong worstNanos = new AtomicLong();
    private final Thread thread;

    public SchedulingProbe() {
        thread = new Thread(
                () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        long before = System.nanoTime();
                        try {
                            TimeUnit.NANOSECONDS.sleep(NAP_NANOS);
                        } catch (InterruptedException e) {
                            return;
                        }
                        long late = System.nanoTime() - before - NAP_NANOS;
                        worstNanos.accumulateAndGet(late, Math::max);
                    }
                },
                "scheduling-probe");
        thread.setDaemon(true);
        thread.start();
    }

    /** The worst wake-up delay seen so far, in milliseconds. */
    public long worstMillis() {
        return TimeUnit.NANOSECONDS.toMillis(worstNanos.get());
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
    }
}
