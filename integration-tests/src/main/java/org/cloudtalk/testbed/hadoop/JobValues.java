package org.cloudtalk.testbed.hadoop;

import java.time.Duration;
import org.cloudtalk.testbed.TestbedException;

/** The checks {@link WriteJob} and {@link ReadJob} make of their values, with the message an operator sees. */
final class JobValues {
    private JobValues() {}

    static void check(boolean ok, String key, Object value, String reason) {
        if (!ok) {
            throw new TestbedException("Invalid value " + value + " for " + key + ": " + reason);
        }
    }

    /** A name that can be part of a path and a process role. */
    static void name(String name) {
        check(name.matches("[A-Za-z0-9._-]{1,40}"), "name", name, "1-40 letters, digits, '.', '_' or '-'");
    }

    static void pauses(Duration min, Duration max) {
        check(
                !min.isNegative() && min.compareTo(max) <= 0,
                "pause",
                min + "-" + max,
                "must be 0 or more, the minimum not above the maximum");
    }
}
