package org.cloudtalk.server.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.cloudtalk.client.api.ApiError;

/**
 * Decides, before any work is queued, whether a tenant's query may proceed: within its rate (token bucket) and with
 * fewer than {@code maxInFlight} of its queries queued or running. Refusals are cheap and happen on the I/O thread, so
 * a tenant flooding the server fills neither the worker queue nor the workers that other tenants need.
 *
 * <p>Concurrency: thread-safe; the rate limiter locks briefly, a tenant's in-flight count changes atomically in the
 * map.
 */
public final class Admission {
    /** A granted admission: release it when the query is answered (again does nothing). */
    public interface Ticket extends AutoCloseable {
        @Override
        void close();
    }

    private final TenantRateLimiter rateLimiter;
    private final int maxInFlight;
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    public Admission(TenantLimits limits, int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be positive: " + maxInFlight);
        }
        this.rateLimiter = new TenantRateLimiter(limits.queriesPerSecond(), limits.burst());
        this.maxInFlight = maxInFlight;
    }

    /** @throws QueryRejectedException (RATE_LIMITED) when the tenant is over its rate or its in-flight cap */
    public Ticket admit(String tenant) {
        if (!rateLimiter.tryAcquire(tenant)) {
            throw new QueryRejectedException(ApiError.RATE_LIMITED, "tenant " + tenant + " is over its query rate");
        }
        // One atomic step per change: a count that reached zero leaves the map in the same step, so no thread can
        // hold a slot on a counter the map no longer has.
        boolean[] admitted = {false};
        inFlight.compute(tenant, (unused, count) -> {
            int held = count == null ? 0 : count;
            if (held >= maxInFlight) {
                return count;
            }
            admitted[0] = true;
            return held + 1;
        });
        if (!admitted[0]) {
            throw new QueryRejectedException(
                    ApiError.RATE_LIMITED, "tenant " + tenant + " already has " + maxInFlight + " queries in progress");
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                inFlight.computeIfPresent(tenant, (unused, count) -> count <= 1 ? null : count - 1);
            }
        };
    }
}
