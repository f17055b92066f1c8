package org.cloudtalk.server.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * Pseudo-reservations (§5.5): the load an answer will put on the hosts it recommends counts as in use for a hold time,
 * so that queries arriving before the hosts' daemons can see the new traffic do not all pile onto the same idle host.
 * Each reservation stands for its own flows ({@link ReservedLoad}); reservations on one host add up.
 *
 * <p>Concurrency: thread-safe; all state under the instance lock (short critical sections: a few map operations per
 * host of one query). {@link #reserve} is atomic across the hosts of one answer, and refuses if another answer
 * reserved one of them since the caller's {@link Snapshot}, so concurrent queries see each other's choices.
 */
public final class Reservations {
    private final long holdNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Host> hosts = new HashMap<>();
    private long version;

    /** One host's live reservations, oldest first (one hold time for all: expiry order is insertion order). */
    private static final class Host {
        final ArrayDeque<Hold> holds = new ArrayDeque<>();
        ReservedLoad total = ReservedLoad.NONE;
        long reservedAt;
    }

    private record Hold(ReservedLoad load, long until) {}

    /** What was reserved on some hosts at one moment, and the version to re-check against when reserving. */
    public record Snapshot(Map<String, ReservedLoad> loads, long version) {
        public Snapshot {
            loads = Map.copyOf(loads);
        }

        /**
         * The state with the reserved load counted ({@link ReservedLoad#addTo}, at {@code weight}); hosts in
         * {@code literal} are named by the query itself and keep their measured load.
         */
        public ClusterState applyTo(ClusterState state, Set<String> literal, double weight) {
            if (loads.isEmpty()) {
                return state;
            }
            Map<String, HostLoad> adjusted = new HashMap<>(state.hosts());
            loads.forEach((host, load) -> {
                HostLoad measured = adjusted.get(host);
                if (measured != null && !literal.contains(host)) {
                    adjusted.put(host, load.addTo(measured, weight));
                }
            });
            return new ClusterState(adjusted);
        }
    }

    public Reservations(Duration hold) {
        this(hold, System::nanoTime);
    }

    Reservations(Duration hold, LongSupplier nanoClock) {
        this.holdNanos = requireNonNull(hold, "hold is null").toNanos();
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    }

    public Duration hold() {
        return Duration.ofNanos(holdNanos);
    }

    /** The load reserved now on each of {@code addresses} that has any. */
    public synchronized Snapshot snapshot(Collection<String> addresses) {
        long now = nanoClock.getAsLong();
        Map<String, ReservedLoad> loads = new HashMap<>();
        for (String address : addresses) {
            Host host = live(address, now);
            if (host != null) {
                loads.put(address, host.total);
            }
        }
        return new Snapshot(loads, version);
    }

    /**
     * Adds each host's load, unless {@code force} is false and one of the hosts was reserved by another answer since
     * {@code seen} was taken: then nothing is reserved and the caller evaluates again with the new reservations.
     */
    public synchronized boolean reserve(Map<String, ReservedLoad> loads, Snapshot seen, boolean force) {
        long now = nanoClock.getAsLong();
        if (!force) {
            for (String address : loads.keySet()) {
                Host host = live(address, now);
                if (host != null && host.reservedAt > seen.version()) {
                    return false;
                }
            }
        }
        if (holdNanos <= 0 || loads.isEmpty()) {
            return true;
        }
        version++;
        loads.forEach((address, load) -> {
            Host host = hosts.computeIfAbsent(address, unused -> new Host());
            host.holds.addLast(new Hold(load, now + holdNanos));
            host.total = host.total.plus(load);
            host.reservedAt = version;
        });
        return true;
    }

    /** How many hosts hold a reservation now. */
    public synchronized int size() {
        long now = nanoClock.getAsLong();
        int held = 0;
        for (Iterator<String> it = hosts.keySet().iterator(); it.hasNext(); ) {
            String address = it.next();
            Host host = hosts.get(address);
            expire(host, now);
            if (host.holds.isEmpty()) {
                it.remove();
            } else {
                held++;
            }
        }
        return held;
    }

    /** The host with its expired holds dropped, or null (and forgotten) when none is left. */
    private Host live(String address, long now) {
        Host host = hosts.get(address);
        if (host == null) {
            return null;
        }
        expire(host, now);
        if (host.holds.isEmpty()) {
            hosts.remove(address);
            return null;
        }
        return host;
    }

    private static void expire(Host host, long now) {
        boolean expired = false;
        while (!host.holds.isEmpty() && host.holds.peekFirst().until() - now <= 0) {
            host.total = host.total.minus(host.holds.pollFirst().load());
            expired = true;
        }
        if (expired && host.holds.isEmpty()) {
            host.total = ReservedLoad.NONE; // no rounding residue from the subtractions
        }
    }
}
