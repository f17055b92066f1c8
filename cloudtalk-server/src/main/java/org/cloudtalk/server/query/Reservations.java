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
 * Pseudo-reservations (§5.5): the load an answer will put on the hosts it recommends counts as in use until the hosts'
 * daemons can see the new traffic themselves, so that queries arriving meanwhile do not all pile onto the same idle
 * host. Each reservation stands for its own flows ({@link ReservedLoad}); reservations on one host add up.
 *
 * <p>A reservation counts in full for the hold time, then less and less over the fade time, down to nothing: a
 * daemon reports a rate averaged over its smoothing window, so new traffic shows in its figures linearly over one
 * window, after up to one sampling interval and the server's status reuse. Holding in full for that lag and fading
 * over one window keeps reservation plus reported rate at about the traffic itself (when the transfer starts as
 * answered, at the rate its flows state, and the daemons' settings match the server's); ending at once after the
 * paper's 300 ms (fade 0), a transfer's host looked idle again long before its daemon could say otherwise.
 *
 * <p>Concurrency: thread-safe; all state under the instance lock (short critical sections: a few map operations per
 * host of one query, the fading sum kept incrementally). {@link #reserve} is atomic across the hosts of one answer, and
 * refuses if another answer reserved one of them since the caller's {@link Snapshot}, so concurrent queries see each
 * other's choices.
 */
public final class Reservations {
    private final long holdNanos;
    private final long fadeNanos;
    private final LongSupplier nanoClock;
    /** Times are kept as seconds since this instant, so the fading sums keep their precision. */
    private final long originNanos;

    private final Map<String, Host> hosts = new HashMap<>();
    private long version;

    /**
     * One host's live reservations, oldest first in each phase (one hold and fade time for all: a phase's expiry
     * order is its insertion order). A fading reservation counts {@code load * (end - now) / fade}; the sum over
     * them is {@code (endWeighted - now * fadingTotal) / fade}, kept without visiting each one.
     */
    private static final class Host {
        final ArrayDeque<Hold> full = new ArrayDeque<>();
        final ArrayDeque<Hold> fading = new ArrayDeque<>();
        ReservedLoad fullTotal = ReservedLoad.NONE;
        ReservedLoad fadingTotal = ReservedLoad.NONE;
        /** The sum of each fading reservation's load times its end (seconds since the origin). */
        ReservedLoad endWeighted = ReservedLoad.NONE;

        long reservedAt;

        boolean isEmpty() {
            return full.isEmpty() && fading.isEmpty();
        }
    }

    /** @param fadeFrom when it stops counting in full (nanos); it stops counting at all one fade time later */
    private record Hold(ReservedLoad load, long fadeFrom) {}

    /** What was reserved on some hosts at one moment, and the version to re-check against when reserving. */
    public record Snapshot(Map<String, ReservedLoad> loads, long version) {
        public Snapshot {
            loads = Map.copyOf(loads);
        }

        /**
         * The state with the reserved load counted ({@link ReservedLoad#addTo}) on hosts without status too: at
         * {@code weight} in the heuristic's view, at its rate in the flow estimators' (which take measured use as it
         * is, not weighed). Hosts in {@code literal} are named by the query itself and keep their measured load.
         */
        public ClusterState applyTo(ClusterState state, Set<String> literal, double weight) {
            if (loads.isEmpty()) {
                return state;
            }
            Map<String, HostLoad> scored = new HashMap<>(state.hosts());
            Map<String, HostLoad> estimated = new HashMap<>(state.estimated());
            loads.forEach((host, load) -> {
                if (!literal.contains(host)) {
                    // A host without status counts as heavily loaded; unreserved, it would win every answer once the
                    // hosts with status were reserved past their capacity.
                    scored.put(host, load.addTo(state.load(host), weight));
                    estimated.put(host, load.addTo(state.estimatedLoad(host), 1));
                }
            });
            return new ClusterState(scored, estimated);
        }
    }

    /** Reservations that count in full for {@code hold} and end then (zero: none at all). */
    public Reservations(Duration hold) {
        this(hold, Duration.ZERO);
    }

    /**
     * Reservations that count in full for {@code hold}, then fade linearly to nothing over {@code fade}; a zero
     * {@code hold} means no reservations at all, whatever the fade.
     */
    public Reservations(Duration hold, Duration fade) {
        this(hold, fade, System::nanoTime);
    }

    Reservations(Duration hold, LongSupplier nanoClock) {
        this(hold, Duration.ZERO, nanoClock);
    }

    Reservations(Duration hold, Duration fade, LongSupplier nanoClock) {
        this.holdNanos = requireNonNull(hold, "hold is null").toNanos();
        this.fadeNanos = requireNonNull(fade, "fade is null").toNanos();
        if (holdNanos < 0 || fadeNanos < 0) {
            throw new IllegalArgumentException("hold and fade must not be negative: " + hold + ", " + fade);
        }
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.originNanos = nanoClock.getAsLong();
    }

    /**
     * How long an answer's flow of known size counts its bytes over: the reservation's weight over its life, the hold
     * plus half the fade, so that it stands for the flow's bytes (zero: no reservations).
     */
    public Duration sizeSpread() {
        return holdNanos <= 0 ? Duration.ZERO : Duration.ofNanos(holdNanos + fadeNanos / 2);
    }

    /** The load reserved now on each of {@code addresses} that has any. */
    public synchronized Snapshot snapshot(Collection<String> addresses) {
        long now = nanoClock.getAsLong();
        Map<String, ReservedLoad> loads = new HashMap<>();
        for (String address : addresses) {
            Host host = live(address, now);
            if (host != null) {
                loads.put(address, current(host, now));
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
            host.full.addLast(new Hold(load, now + holdNanos));
            host.fullTotal = host.fullTotal.plus(load);
            host.reservedAt = version;
        });
        return true;
    }

    /** How many hosts hold a reservation now. */
    public synchronized int size() {
        long now = nanoClock.getAsLong();
        int held = 0;
        for (Iterator<Host> it = hosts.values().iterator(); it.hasNext(); ) {
            Host host = it.next();
            advance(host, now);
            if (host.isEmpty()) {
                it.remove();
            } else {
                held++;
            }
        }
        return held;
    }

    /** The host with its ended reservations dropped, or null (and forgotten) when none is left. */
    private Host live(String address, long now) {
        Host host = hosts.get(address);
        if (host == null) {
            return null;
        }
        advance(host, now);
        if (host.isEmpty()) {
            hosts.remove(address);
            return null;
        }
        return host;
    }

    /** What the host's reservations stand for at {@code now}: the full ones, and each fading one's share. */
    private ReservedLoad current(Host host, long now) {
        if (host.fading.isEmpty()) {
            return host.fullTotal;
        }
        double fadeSeconds = fadeNanos / 1e9;
        ReservedLoad fading = host.endWeighted
                .minus(host.fadingTotal.times(seconds(now)))
                .times(1 / fadeSeconds)
                .atMost(host.fadingTotal);
        return host.fullTotal.plus(fading);
    }

    /** Moves reservations whose hold is over to the fading ones, and drops those that ended. */
    private void advance(Host host, long now) {
        while (!host.full.isEmpty() && host.full.peekFirst().fadeFrom() - now <= 0) {
            Hold hold = host.full.pollFirst();
            host.fullTotal = host.fullTotal.minus(hold.load());
            if (end(hold) - now > 0) {
                host.fading.addLast(hold);
                host.fadingTotal = host.fadingTotal.plus(hold.load());
                host.endWeighted = host.endWeighted.plus(hold.load().times(seconds(end(hold))));
            }
        }
        while (!host.fading.isEmpty() && end(host.fading.peekFirst()) - now <= 0) {
            Hold hold = host.fading.pollFirst();
            host.fadingTotal = host.fadingTotal.minus(hold.load());
            host.endWeighted = host.endWeighted.minus(hold.load().times(seconds(end(hold))));
        }
        // No rounding residue from the subtractions once a phase is empty.
        if (host.full.isEmpty()) {
            host.fullTotal = ReservedLoad.NONE;
        }
        if (host.fading.isEmpty()) {
            host.fadingTotal = ReservedLoad.NONE;
            host.endWeighted = ReservedLoad.NONE;
        }
    }

    /** When {@code hold} stops counting at all (nanos). */
    private long end(Hold hold) {
        return hold.fadeFrom() + fadeNanos;
    }

    private double seconds(long nanos) {
        return (nanos - originNanos) / 1e9;
    }
}
