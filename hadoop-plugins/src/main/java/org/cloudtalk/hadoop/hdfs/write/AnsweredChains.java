package org.cloudtalk.hadoop.hdfs.write;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * Replica chains an answer placed for blocks that are not allocated yet, so that a NameNode allocating many blocks
 * for one writer asks one query per several blocks instead of one per block (docs/hadoop-plugins.md).
 *
 * <p>A chain is only handed out for the same request it was asked for — same writer, replication, block size and
 * set of usable DataNodes, so HDFS's exclusions for a block are never bypassed — and only within
 * {@code reuse} of its answer, which is shorter than the server's pseudo-reservation hold: the server still counts
 * the chain's load while it is used. Each chain is handed out once, oldest answer first. How many blocks to ask for
 * follows demand: the most blocks of this request that waited for an answer at the same time lately, at most
 * {@code maxBlocks}. Blocks allocated one after another (a writer's pipeline,
 * seconds apart) keep asking one chain each; blocks allocated concurrently — written at the same time — are placed
 * together, on distinct hosts, as the server would place concurrent writes anyway, and for up to twice the reuse time
 * after such a burst a block may still take, or ask for, the burst's chains.
 *
 * <p>Concurrency: thread-safe; each request's state is guarded by its own lock, requests do not contend.
 */
final class AnsweredChains {
    /** Beyond this many requests, idle ones are dropped when a new one arrives. */
    private static final int MAX_REQUESTS = 1024;

    private final int maxBlocks;
    private final long reuseNanos;
    private final LongSupplier clock;
    private final IntConsumer onExpired;
    private final ConcurrentMap<Request, Ready> byRequest = new ConcurrentHashMap<>();

    /** What a chain was asked for; a chain is only handed out for an equal request. */
    record Request(String writer, int replicas, long blockBytes, Set<String> candidates) {
        Request {
            requireNonNull(writer, "writer is null");
            candidates = Set.copyOf(candidates);
        }
    }

    /** @param onExpired told how many chains were dropped unused (their reservations lapse on the server) */
    AnsweredChains(int maxBlocks, Duration reuse, LongSupplier nanoClock, IntConsumer onExpired) {
        if (maxBlocks < 1) {
            throw new IllegalArgumentException("maxBlocks must be at least 1: " + maxBlocks);
        }
        this.maxBlocks = maxBlocks;
        this.reuseNanos = reuse.toNanos();
        this.clock = requireNonNull(nanoClock, "nanoClock is null");
        this.onExpired = requireNonNull(onExpired, "onExpired is null");
    }

    /**
     * An unused chain answered within the reuse time for this request; when there is none, the caller asks the
     * server and must then call {@link #asked} (answered or not).
     */
    Optional<List<String>> take(Request request) {
        long now = clock.getAsLong();
        Ready ready = byRequest.get(request);
        if (ready == null) {
            if (byRequest.size() >= MAX_REQUESTS) {
                byRequest.values().removeIf(idle -> idle.idle(now));
            }
            ready = byRequest.computeIfAbsent(request, key -> new Ready(now));
        }
        return ready.take(now);
    }

    /**
     * How many blocks the next query for this request should place: as many as were waiting for an answer at once
     * lately (blocks allocated one after another ask one at a time), within the limits. Each block that waits asks
     * on its own, so a burst of n blocks may ask for up to n times that many; the chains no block takes in time are
     * dropped and counted ({@code AnswersUnused}).
     */
    int blocksToAsk(Request request, int mostThatFit) {
        Ready ready = byRequest.get(request);
        int demand = ready == null ? 1 : ready.demand(clock.getAsLong());
        return Math.max(1, Math.min(Math.min(maxBlocks, mostThatFit), demand));
    }

    /**
     * The query asked after a {@link #take} that found nothing is over; {@code leftovers} are the chains of its
     * answer that the asking block did not use (none when there was no answer), kept for the request's next blocks.
     */
    void asked(Request request, List<List<String>> leftovers) {
        long now = clock.getAsLong();
        byRequest.computeIfAbsent(request, key -> new Ready(now)).asked(leftovers, now);
    }

    /**
     * One request's unused chains, oldest answer first, and its demand: the most blocks waiting for an answer at
     * once, over windows of the reuse time.
     */
    private final class Ready {
        private final ArrayDeque<Answered> chains = new ArrayDeque<>();
        private long windowStart;
        private int waiting;
        private int peakThisWindow;
        private int peakLastWindow;

        Ready(long now) {
            windowStart = now;
        }

        synchronized Optional<List<String>> take(long now) {
            roll(now);
            dropExpired(now);
            Answered next = chains.pollFirst();
            if (next != null) {
                return Optional.of(next.chain());
            }
            waiting++;
            peakThisWindow = Math.max(peakThisWindow, waiting);
            return Optional.empty();
        }

        synchronized void asked(List<List<String>> leftovers, long now) {
            waiting = Math.max(0, waiting - 1);
            leftovers.forEach(chain -> chains.addLast(new Answered(List.copyOf(chain), now)));
        }

        synchronized int demand(long now) {
            roll(now);
            return Math.max(peakThisWindow, peakLastWindow);
        }

        synchronized boolean idle(long now) {
            roll(now);
            dropExpired(now);
            return waiting == 0 && peakThisWindow == 0 && peakLastWindow == 0 && chains.isEmpty();
        }

        private void dropExpired(long now) {
            int stale = 0;
            while (!chains.isEmpty() && now - chains.peekFirst().answeredAt() > reuseNanos) {
                chains.pollFirst();
                stale++;
            }
            if (stale > 0) {
                onExpired.accept(stale);
            }
        }

        private void roll(long now) {
            long windows = (now - windowStart) / reuseNanos;
            if (windows > 0) {
                peakLastWindow = windows == 1 ? peakThisWindow : 0;
                peakThisWindow = waiting;
                windowStart += windows * reuseNanos;
            }
        }
    }

    private record Answered(List<String> chain, long answeredAt) {}
}
