package org.cloudtalk.server.deadline;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The instant by which a query must be answered, on a nanosecond clock ({@link System#nanoTime} in the server, a fake
 * one in tests). Work checks it cooperatively with {@link #check()} and stops when it has passed.
 */
public final class Deadline {
    private static final Deadline NONE = new Deadline(System::nanoTime, 0, false);

    private final LongSupplier clock;
    private final long atNanos;
    private final boolean bounded;

    private Deadline(LongSupplier clock, long atNanos, boolean bounded) {
        this.clock = clock;
        this.atNanos = atNanos;
        this.bounded = bounded;
    }

    /** No deadline: for callers without one (benchmarks, offline tools). */
    public static Deadline none() {
        return NONE;
    }

    /** {@code timeout} from now on the system clock. */
    public static Deadline after(Duration timeout) {
        return after(timeout, System::nanoTime);
    }

    /** {@code timeout} from now on {@code clock} (nanoseconds, monotonic). */
    public static Deadline after(Duration timeout, LongSupplier clock) {
        requireNonNull(timeout, "timeout is null");
        requireNonNull(clock, "clock is null");
        return new Deadline(clock, clock.getAsLong() + timeout.toNanos(), true);
    }

    public boolean expired() {
        return bounded && clock.getAsLong() - atNanos >= 0;
    }

    /** Time left, zero once expired; {@link Long#MAX_VALUE} nanoseconds for no deadline. */
    public Duration remaining() {
        if (!bounded) {
            return Duration.ofNanos(Long.MAX_VALUE);
        }
        return Duration.ofNanos(Math.max(0, atNanos - clock.getAsLong()));
    }

    /**
     * The instant half way from now to this deadline, on the same clock; no deadline stays none. For work that may
     * stop early with a lesser answer and must leave the rest of the time to deliver it.
     */
    public Deadline halfway() {
        if (!bounded) {
            return this;
        }
        long now = clock.getAsLong();
        return new Deadline(clock, now + Math.max(0, atNanos - now) / 2, true);
    }

    /**
     * @throws DeadlineExceededException once the deadline has passed, or when the thread was interrupted (the server
     *     is stopping: long work, such as the flow estimator's, stops at its next check as it would at the deadline)
     */
    public void check() {
        if (expired() || Thread.currentThread().isInterrupted()) {
            throw new DeadlineExceededException();
        }
    }
}
