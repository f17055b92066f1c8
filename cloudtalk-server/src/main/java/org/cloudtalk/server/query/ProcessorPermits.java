package org.cloudtalk.server.query;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Permits to evaluate, one per spare processor, granted round robin over the tenants waiting for one. The server has
 * many workers because gathering status waits on the network; evaluation only computes, and more of it at once than
 * there are processors would only slice the processors finer, starving the event loop that must send the answers
 * (and the 503s at their deadlines) of its share. First come, first served would let one tenant with many long
 * evaluations queued make every other tenant's wait as long as all of them; round robin makes it one of theirs.
 *
 * <p>Concurrency: thread-safe; waiters wait on this instance's monitor, and each release hands its permit to one
 * waiter directly (no barging).
 */
public final class ProcessorPermits {
    private int free;
    /** Tenants with waiters, in the order they are served next; each tenant's waiters in arrival order. */
    private final Map<String, ArrayDeque<Waiter>> waiting = new LinkedHashMap<>();

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
        Waiter waiter = new Waiter();
        waiting.computeIfAbsent(tenant, unused -> new ArrayDeque<>()).addLast(waiter);
        long end = System.nanoTime() + wait.toNanos();
        try {
            for (long left = wait.toNanos(); !waiter.granted && left > 0; left = end - System.nanoTime()) {
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
        Iterator<Map.Entry<String, ArrayDeque<Waiter>>> tenants =
                waiting.entrySet().iterator();
        if (!tenants.hasNext()) {
            free++;
            return;
        }
        Map.Entry<String, ArrayDeque<Waiter>> next = tenants.next();
        tenants.remove();
        next.getValue().pollFirst().granted = true;
        if (!next.getValue().isEmpty()) {
            waiting.put(next.getKey(), next.getValue()); // to the back of the round
        }
        notifyAll();
    }

    private void forget(String tenant, Waiter waiter) {
        ArrayDeque<Waiter> queue = waiting.get(tenant);
        if (queue != null && queue.remove(waiter) && queue.isEmpty()) {
            waiting.remove(tenant);
        }
    }
}
