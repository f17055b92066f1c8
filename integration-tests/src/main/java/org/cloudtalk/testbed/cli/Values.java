package org.cloudtalk.testbed.cli;

import java.util.ArrayList;
import java.util.List;
import org.cloudtalk.testbed.TestbedException;

/** Flag values as the testbed's commands read them, with the messages operators see. */
final class Values {
    private Values() {}

    static int number(String value, String flag, int fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new TestbedException("Invalid value " + value + " for --" + flag + ": not a whole number");
        }
    }

    /** A comma-separated list of fractions in (0, 1]: 1 makes every candidate busy (every other host sends, for incast). */
    static List<Double> fractions(String value, String flag, List<Double> fallback) {
        if (value == null) {
            return fallback;
        }
        List<Double> fractions = new ArrayList<>();
        for (String part : value.split(",")) {
            try {
                double fraction = Double.parseDouble(part.trim());
                if (fraction <= 0 || fraction > 1) {
                    throw new NumberFormatException();
                }
                fractions.add(fraction);
            } catch (NumberFormatException e) {
                throw new TestbedException(
                        "Invalid value " + value + " for --" + flag + ": expected fractions in (0, 1], e.g. 0.1,0.5");
            }
        }
        return List.copyOf(fractions);
    }
}
