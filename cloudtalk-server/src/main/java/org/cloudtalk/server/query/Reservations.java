package org.cloudtalk.server.query;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Pseudo-reservations (§5.5): an endpoint just recommended counts as in use for a hold time, so that queries arriving
 * before its daemon can see the new load do not all pile onto the same idle host.
 *
 * <p>Concurrency: thread-safe. {@link #reserve} is atomic across the endpoints of one answer (the instance lock), so
 * two concurrent queries cannot both be told a host is free; reads see a concurrent map.
 */
public final class Reservations {
    private final long holdNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Long> heldUntil = new ConcurrentHashMap<>();

    public Reservations(Duration hold) {
        this(hold, System::nanoTime);
    }

    Reservations(Duration hold, LongSupplier nanoClock) {
        this.holdNanos = hold.toNanos();
        this.nanoClock = nanoClock;
    }

    /** The endpoints reserved right now. */
    public Set<String> held() {
        long now = nanoClock.getAsLong();
        Set<String> held = new HashSet<>();
        for (Iterator<Map.Entry<String, Long>> it = heldUntil.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> entry = it.next();
            if (entry.getValue() - now > 0) {
                held.add(entry.getKey());
            } else {
                it.remove();
            }
        }
        return held;
    }

    /**
     * Reserves every endpoint, unless one of them was reserved by someone else since {@code seen} was read: then
     * nothing is reserved and the caller re-evaluates with the new reservations.
     */
    public synchronized boolean reserve(Collection<String> endpoints, Set<String> seen) {
        long now = nanoClock.getAsLong();
        for (String endpoint : endpoints) {
            Long until = heldUntil.get(endpoint);
            if (until != null && until - now > 0 && !seen.contains(endpoint)) {
                return false;
            }
        }
        if (holdNanos > 0) {
            for (String endpoint : endpoints) {
                heldUntil.put(endpoint, now + holdNanos);
            }
        }
        return true;
    }

    public int size() {
        return held().size();
    }
}
