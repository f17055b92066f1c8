package org.cloudtalk.status.server;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * Token buckets per sender address, so that one sender cannot make the daemon spend a core. Buckets are a fixed
 * array indexed by a hash of the address: memory stays constant however many addresses a flood spoofs, at the price
 * of two senders occasionally sharing a bucket.
 *
 * <p>Concurrency: not thread-safe; called from the daemon's one event-loop thread.
 */
public final class SourceRateLimiter {
    private static final int BUCKETS = 4096;

    private final double tokensPerNano;
    private final double burst;
    private final double[] tokens = new double[BUCKETS];
    private final long[] lastRefillNanos = new long[BUCKETS];

    /** {@code ratePerSecond} sustained requests per sender, {@code burst} at once. */
    public SourceRateLimiter(double ratePerSecond, int burst) {
        if (ratePerSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("rate and burst must be positive: " + ratePerSecond + ", " + burst);
        }
        this.tokensPerNano = ratePerSecond / 1e9;
        this.burst = burst;
        Arrays.fill(tokens, burst);
        Arrays.fill(lastRefillNanos, Long.MIN_VALUE);
    }

    public boolean tryAcquire(InetAddress sender, long nowNanos) {
        int bucket = (Arrays.hashCode(sender.getAddress()) * 0x9E3779B9 >>> 20) & (BUCKETS - 1);
        if (lastRefillNanos[bucket] != Long.MIN_VALUE) {
            long elapsed = nowNanos - lastRefillNanos[bucket];
            tokens[bucket] = Math.min(burst, tokens[bucket] + Math.max(0, elapsed) * tokensPerNano);
        }
        lastRefillNanos[bucket] = nowNanos;
        if (tokens[bucket] < 1) {
            return false;
        }
        tokens[bucket] -= 1;
        return true;
    }
}
