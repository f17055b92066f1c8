package org.cloudtalk.server.query;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.client.api.ApiError;

/**
 * Decides, before any work is queued, whether a tenant's query may proceed: within its rate (token bucket) and with
 * fewer than {@code maxInFlight} of its queries queued or running. Refusals are cheap and happen on the I/O thread, so
 * a tenant flooding the server fills neither the worker queue nor the workers that other tenants need.
 *
 * <p>Concurrency: thread-safe; the rate limiter locks briefly, in-flight counts are atomic per tenant.
 */
public final class Admission {
    /** A granted admission: release it when the query is answered. */
    public interface Ticket extends AutoCloseable {
        @Override
        void close();
    }

    private final TenantRateLimiter rateLimiter;
    private final int maxInFlight;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

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
        AtomicInteger count = inFlight.computeIfAbsent(tenant, unused -> new AtomicInteger());
        if (count.incrementAndGet() > maxInFlight) {
            count.decrementAndGet();
            throw new QueryRejectedException(
                    ApiError.RATE_LIMITED, "tenant " + tenant + " already has " + maxInFlight + " queries in progress");
        }
        return () -> {
            if (count.decrementAndGet() == 0) {
                inFlight.remove(tenant, count);
            }
        };
    }
}
