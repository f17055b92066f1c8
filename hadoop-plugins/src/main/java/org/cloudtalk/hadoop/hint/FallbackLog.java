package org.cloudtalk.hadoop.hint;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs fallbacks at most once per interval and cause, with how many were not logged: a NameNode that loses its
 * CloudTalk server must not write a warning per block.
 *
 * <p>Concurrency: thread-safe; per cause, an atomic "next log time" decides which caller logs and an atomic counter
 * holds the fallbacks since.
 */
final class FallbackLog {
    private static final Logger log = LoggerFactory.getLogger(FallbackLog.class);

    private final String plugin;
    private final long intervalNanos;
    private final Map<Fallback, AtomicLong> nextLog = new EnumMap<>(Fallback.class);
    private final Map<Fallback, AtomicLong> unlogged = new EnumMap<>(Fallback.class);

    FallbackLog(String plugin, Duration interval) {
        this.plugin = plugin;
        this.intervalNanos = interval.toNanos();
        long now = System.nanoTime();
        for (Fallback cause : Fallback.values()) {
            nextLog.put(cause, new AtomicLong(now));
            unlogged.put(cause, new AtomicLong());
        }
    }

    void fallback(Fallback cause, String detail) {
        AtomicLong since = unlogged.get(cause);
        since.incrementAndGet();
        AtomicLong next = nextLog.get(cause);
        long now = System.nanoTime();
        long due = next.get();
        if (now - due >= 0 && next.compareAndSet(due, now + intervalNanos)) {
            log.warn(
                    "CloudTalk {}: using the default choice ({}): {} ({} such fallbacks since the last message)",
                    plugin,
                    cause,
                    detail,
                    since.getAndSet(0));
        }
    }
}
