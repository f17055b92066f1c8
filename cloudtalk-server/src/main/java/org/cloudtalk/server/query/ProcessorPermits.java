package org.cloudtalk.server.query;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Permits to evaluate, one per spare processor, granted round robin over the tenants waiting for one, a tenant that
 * starts waiting going before those already served, at most every other permit (so tenants already served share at
 * least half of the permits, and none of them starves). The server has many workers because gathering status waits
 * on the network; evaluation only computes, and more of it at once than
 * there are processors would only slice the processors finer, starving the event loop that must send the answers
 * (and the 503s at their deadlines) of its share. First come, first served would let one tenant with many long
 * evaluations queued make every other tenant's wait as long as all of them; round robin makes it one of theirs.
 *
 * <p>Concurrency: thread-safe; waiters wait on this instance's monitor, and each release hands its permit to one
 * waiter directly (no barging).
 */
public final class ProcessorPermits {
    private int free;
    /** Each waiting tenant's waiters, in arrival order. */
    private final Map<String, ArrayDeque<Waiter>> waiting = new HashMap<>();
    /** Tenants that started waiting since they were last served: first in turn, in arrival order. */
    private final ArrayDeque<String> fresh = new ArrayDeque<>();
    /** Tenants served and still waiting with more: round robin, after the fresh ones. */
    private final ArrayDeque<String> round = new ArrayDeque<>();
    /**
     * Whether the last permit went to a fresh tenant ahead of tenants in the round: the next goes to the round, so
     * that tenants asking one query at a time, fresh again each time, cannot starve a tenant with several queued.
     */
    private boolean freshWentAhead;

    private static final class Waiter {
        boolean granted;
    }

    public ProcessorPermits(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be positive: " + permits);
        }
        this.free = permits;
    }

    /**
     * Takes a permit for {@code tenant}, waiting at most {@code wait}; release it with {@link #release}.
     *
     * @return false if none was granted in time
     */
    public synchronized boolean acquire(String tenant, Duration wait) throws InterruptedException {
        if (free > 0 && waiting.isEmpty()) {
            free--;
            return true;
        }
        long waitNanos = wait.toNanos(); // before queueing: an overflow must not leave a waiter behind
        Waiter waiter = new Waiter();
        waiting.computeIfAbsent(tenant, unused -> {
                    // A tenant not waiting yet goes before those already served: it waits for the evaluations running,
                    // not for one more of a tenant that has many queued.
                    fresh.addLast(tenant);
                    return new ArrayDeque<>();
                })
                .addLast(waiter);
        long end = System.nanoTime() + waitNanos;
        try {
            for (long left = waitNanos; !waiter.granted && left > 0; left = end - System.nanoTime()) {
                long millis = left / 1_000_000;
                wait(millis, (int) (left - millis * 1_000_000));
            }
        } catch (InterruptedException e) {
            if (waiter.granted) {
                release();
            } else {
                forget(tenant, waiter);
            }
            throw e;
        }
        if (!waiter.granted) {
            forget(tenant, waiter);
        }
        return waiter.granted;
    }

    /** Hands the permit to the next tenant in turn, or frees it. */
    public synchronized void release() {
        boolean freshFirst = !fresh.isEmpty() && (round.isEmpty() || !freshWentAhead);
        freshWentAhead = freshFirst && !round.isEmpty();
        String next = freshFirst ? fresh.pollFirst() : round.pollFirst();
        if (next == null) {
            free++;
            return;
        }
        ArrayDeque<Waiter> queue = waiting.get(next);
        queue.pollFirst().granted = true;
        if (queue.isEmpty()) {
            waiting.remove(next);
        } else {
            round.addLast(next); // to the back of the round
        }
        notifyAll();
    }

    private void forget(String tenant, Waiter waiter) {
        ArrayDeque<Waiter> queue = waiting.get(tenant);
        if (queue != null && queue.remove(waiter) && queue.isEmpty()) {
            waiting.remove(tenant);
            if (!fresh.remove(tenant)) {
                round.remove(tenant);
            }
        }
    }
}
