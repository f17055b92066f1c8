package org.cloudtalk.status.server;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.cloudtalk.status.wire.DropReason;

/**
 * What the daemon has received, answered and dropped (by reason).
 *
 * <p>Concurrency: thread-safe; LongAdders, written by the event loop and read by whoever logs.
 */
public final class DaemonCounters {
    private final LongAdder received = new LongAdder();
    private final LongAdder replied = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final Map<DropReason, LongAdder> dropped = new EnumMap<>(DropReason.class);

    public DaemonCounters() {
        for (DropReason reason : DropReason.values()) {
            dropped.put(reason, new LongAdder());
        }
    }

    void countReceived() {
        received.increment();
    }

    void countReplied() {
        replied.increment();
    }

    void countFailed() {
        failed.increment();
    }

    void countDropped(DropReason reason) {
        dropped.get(reason).increment();
    }

    public long received() {
        return received.sum();
    }

    public long replies() {
        return replied.sum();
    }

    public long failures() {
        return failed.sum();
    }

    public long dropped(DropReason reason) {
        return dropped.get(reason).sum();
    }

    public long droppedTotal() {
        return dropped.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** One line for the log: {@code received=.. replied=.. failed=.. dropped=.. (REASON=n ...)}. */
    public String summary() {
        StringBuilder line = new StringBuilder();
        line.append("received=").append(received()).append(" replied=").append(replies());
        line.append(" failed=").append(failures()).append(" dropped=").append(droppedTotal());
        StringBuilder reasons = new StringBuilder();
        dropped.forEach((reason, count) -> {
            long value = count.sum();
            if (value > 0) {
                reasons.append(reasons.length() == 0 ? "" : " ")
                        .append(reason)
                        .append('=')
                        .append(value);
            }
        });
        if (reasons.length() > 0) {
            line.append(" (").append(reasons).append(')');
        }
        return line.toString();
    }
}
