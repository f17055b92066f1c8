package org.cloudtalk.benchmarks.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Errors a load generator saw, by cause: the HTTP status and the API's error code ({@code 503 TIMED_OUT}), or the
 * I/O failure ({@code io: connection closed}), so a run says what its errors were, not only how many.
 *
 * <p>Concurrency: thread-safe; a concurrent map of adders shared by the client threads.
 */
final class ErrorCauses {
    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"");

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** Counts a response that is not a 200. */
    void response(RawHttp.Response response) {
        Matcher code = CODE.matcher(response.body());
        add(response.status() + (code.find() ? " " + code.group(1) : ""));
    }

    /** Counts a connection that failed. */
    void io(Exception e) {
        add("io: " + e.getMessage());
    }

    long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** {@code 503 TIMED_OUT=12, io: connection closed=1}, or {@code none}. */
    String summary() {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((cause, count) -> sorted.put(cause, count.sum()));
        if (sorted.isEmpty()) {
            return "none";
        }
        StringBuilder out = new StringBuilder();
        sorted.forEach((cause, count) -> out.append(out.length() == 0 ? "" : ", ")
                .append(cause)
                .append('=')
                .append(count));
        return out.toString();
    }

    private void add(String cause) {
        counts.computeIfAbsent(cause, unused -> new LongAdder()).increment();
    }
}
