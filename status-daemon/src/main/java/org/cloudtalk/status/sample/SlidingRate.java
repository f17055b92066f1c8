package org.cloudtalk.status.sample;

/**
 * Rate of a cumulative counter, averaged over a sliding window: {@code (newest - oldest) / elapsed} across the samples
 * of the last {@code window}. After one window of steady traffic it reports that traffic's rate exactly, with no
 * exponential tail; a counter that goes backwards (interface reset) restarts the window.
 *
 * <p>Concurrency: not thread-safe; used by the sampler thread only.
 */
final class SlidingRate {
    private final long windowNanos;
    private final long[] times;
    private final long[] values;
    private int oldest;
    private int count;

    SlidingRate(long windowNanos, int maxSamples) {
        this.windowNanos = windowNanos;
        this.times = new long[maxSamples];
        this.values = new long[maxSamples];
    }

    /** Adds a sample and returns the rate per second over the window (0 until there are two samples). */
    double add(long nanos, long value) {
        if (count > 0 && value < values[index(count - 1)]) {
            count = 0;
        }
        if (count == times.length) {
            oldest = (oldest + 1) % times.length;
            count--;
        }
        times[index(count)] = nanos;
        values[index(count)] = value;
        count++;
        // Keep the newest sample at or beyond the window's start as the base, so the average spans a full window.
        while (count > 2 && nanos - times[index(1)] >= windowNanos) {
            oldest = (oldest + 1) % times.length;
            count--;
        }
        if (count < 2) {
            return 0;
        }
        long elapsed = nanos - times[oldest];
        return elapsed <= 0 ? 0 : (value - values[oldest]) * 1e9 / elapsed;
    }

    private int index(int offset) {
        return (oldest + offset) % times.length;
    }
}
