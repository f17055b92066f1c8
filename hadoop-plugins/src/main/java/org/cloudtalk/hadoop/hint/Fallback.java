package org.cloudtalk.hadoop.hint;

/** Why a plugin used the host system's default choice instead of CloudTalk's answer; each cause is counted. */
public enum Fallback {
    /** No answer within the deadline. */
    TIMEOUT,
    /** The server is down, refused the connection, or answered 503. */
    UNAVAILABLE,
    /** The server refused the query (invalid, over limits, rate limited). */
    REFUSED,
    /** An answer that cannot be used: unreadable, or naming a host that was not a candidate. */
    BAD_ANSWER,
    /** The server timed out or was unreachable moments ago: not asked again until the back-off ends. */
    BACKOFF,
    /** Every hint thread was already waiting on the server. */
    BUSY,
    /** Anything else (the query could not be built, the caller was interrupted). */
    ERROR;

    /** The metric name suffix, e.g. {@code FallbacksTimeout}. */
    String metricName() {
        String lower = name().toLowerCase(java.util.Locale.ROOT);
        StringBuilder name = new StringBuilder("Fallbacks");
        for (String word : lower.split("_")) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return name.toString();
    }
}
