package org.cloudtalk.server.query;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A token bucket per tenant. The map of buckets is bounded (least recently used tenants are forgotten: they come
 * back with a full bucket, which is the generous side of the error).
 *
 * <p>Concurrency: thread-safe; all state under the instance lock (one short critical section per query).
 */
public final class TenantRateLimiter {
    private static final int MAX_TENANTS = 100_000;

    private final double tokensPerNano;
    private final double burst;
    private final LongSupplier nanoClock;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > MAX_TENANTS;
        }
    };

    private static final class Bucket {
        double tokens;
        long refilledAt;

        Bucket(double tokens, long refilledAt) {
            this.tokens = tokens;
            this.refilledAt = refilledAt;
        }
    }

    public TenantRateLimiter(double perSecond, int burst) {
        this(perSecond, burst, System::nanoTime);
    }

    TenantRateLimiter(double perSecond, int burst, LongSupplier nanoClock) {
        this.tokensPerNano = perSecond / 1e9;
        this.burst = burst;
        this.nanoClock = nanoClock;
    }

    public synchronized boolean tryAcquire(String tenant) {
        long now = nanoClock.getAsLong();
        Bucket bucket = buckets.computeIfAbsent(tenant, unused -> new Bucket(burst, now));
        bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.refilledAt) * tokensPerNano);
        bucket.refilledAt = now;
        if (bucket.tokens < 1) {
            return false;
        }
        bucket.tokens -= 1;
        return true;
    }
}
