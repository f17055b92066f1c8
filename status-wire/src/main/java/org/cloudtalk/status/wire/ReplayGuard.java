package org.cloudtalk.status.wire;

/**
 * Rejects requests whose timestamp is outside {@code ±maxSkew} of this host's clock (stale) and requests whose id was
 * already seen while its timestamp could still pass (replayed).
 *
 * <p>An accepted id must be remembered for {@code 2 × maxSkew}: after that its timestamp is stale anyway. Two
 * generations of ids, each covering {@code 2 × maxSkew}, give that with memory bounded by the request rate; a full
 * generation refuses further requests (counted) rather than forgetting ids early.
 *
 * <p>Concurrency: not thread-safe; the daemon calls it from its one event-loop thread.
 */
public final class ReplayGuard {
    private final long maxSkewMillis;
    private final int capacityPerGeneration;
    private LongSet current;
    private LongSet previous;
    private long generationStartMillis = Long.MIN_VALUE;

    public ReplayGuard(long maxSkewMillis, int capacityPerGeneration) {
        if (maxSkewMillis <= 0 || capacityPerGeneration <= 0) {
            throw new IllegalArgumentException("maxSkewMillis and capacity must be positive");
        }
        this.maxSkewMillis = maxSkewMillis;
        this.capacityPerGeneration = capacityPerGeneration;
        this.current = new LongSet(capacityPerGeneration);
        this.previous = new LongSet(capacityPerGeneration);
    }

    /** {@code null} if the request may be answered, else why not. Records the id of an accepted request. */
    public DropReason check(long requestId, long timestampMillis, long nowMillis) {
        // Compared, not subtracted: nowMillis - timestampMillis overflows for a timestamp 2^63 ms away, and passed.
        if (timestampMillis < nowMillis - maxSkewMillis || timestampMillis > nowMillis + maxSkewMillis) {
            return DropReason.STALE;
        }
        rotate(nowMillis);
        if (current.contains(requestId) || previous.contains(requestId)) {
            return DropReason.REPLAYED;
        }
        return current.add(requestId) ? null : DropReason.REPLAY_CACHE_FULL;
    }

    private void rotate(long nowMillis) {
        long generation = 2 * maxSkewMillis;
        if (generationStartMillis == Long.MIN_VALUE) {
            generationStartMillis = nowMillis;
        } else if (nowMillis - generationStartMillis >= 2 * generation) {
            current.clear();
            previous.clear();
            generationStartMillis = nowMillis;
        } else if (nowMillis - generationStartMillis >= generation) {
            LongSet emptied = previous;
            emptied.clear();
            previous = current;
            current = emptied;
            generationStartMillis += generation;
        }
    }

    int capacityPerGeneration() {
        return capacityPerGeneration;
    }

    /**
     * Open-addressing set of longs, no boxing on the request path. It starts small and doubles as it fills (load
     * factor at most 0.5), up to room for {@code capacity} values: an idle daemon holds kilobytes, a busy one up to
     * its bound.
     */
    static final class LongSet {
        private static final long EMPTY = 0;
        private static final int INITIAL_SLOTS = 1024;
        private final int maxSize;
        private long[] slots;
        private boolean containsZero;
        private int size;

        LongSet(int capacity) {
            this.maxSize = capacity;
            this.slots = new long[Math.min(INITIAL_SLOTS, slotsFor(capacity))];
        }

        private static int slotsFor(int capacity) {
            return Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2;
        }

        boolean contains(long value) {
            if (value == EMPTY) {
                return containsZero;
            }
            int mask = slots.length - 1;
            for (int i = mix(value) & mask; ; i = (i + 1) & mask) {
                if (slots[i] == EMPTY) {
                    return false;
                }
                if (slots[i] == value) {
                    return true;
                }
            }
        }

        /** False when full. */
        boolean add(long value) {
            if (size >= maxSize) {
                return false;
            }
            size++;
            if (value == EMPTY) {
                containsZero = true;
                return true;
            }
            if (size * 2 > slots.length) {
                grow();
            }
            insert(slots, value);
            return true;
        }

        void clear() {
            if (size > 0) {
                java.util.Arrays.fill(slots, EMPTY);
                containsZero = false;
                size = 0;
            }
        }

        private void grow() {
            long[] bigger = new long[slots.length * 2];
            for (long value : slots) {
                if (value != EMPTY) {
                    insert(bigger, value);
                }
            }
            slots = bigger;
        }

        private static void insert(long[] table, long value) {
            int mask = table.length - 1;
            int i = mix(value) & mask;
            while (table[i] != EMPTY) {
                i = (i + 1) & mask;
            }
            table[i] = value;
        }

        private static int mix(long value) {
            long h = value * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }
}
