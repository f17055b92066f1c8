package org.cloudtalk.testbed.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            throw TestbedException.invalidValue(value, "--" + flag, "not a whole number");
        }
    }

    /** A comma-separated list of fractions in (0, 1]: 1 makes every candidate busy (every other host sends, for incast). */
    static List<Double> fractions(String value, String flag, List<Double> fallback) {
        if (value == null) {
            return fallback;
        }
        List<Double> fractions = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            // Plain decimals only: Java's own syntax would also take NaN, 0.5d or hexadecimal.
            double fraction = part.strip().matches("\\d*\\.?\\d+") ? Double.parseDouble(part.strip()) : Double.NaN;
            if (!(fraction > 0 && fraction <= 1)) {
                throw TestbedException.invalidValue(value, "--" + flag, "expected fractions in (0, 1], e.g. 0.1,0.5");
            }
            if (fractions.contains(fraction)) {
                throw TestbedException.invalidValue(value, "--" + flag, part.strip() + " is given twice");
            }
            fractions.add(fraction);
        }
        return List.copyOf(fractions);
    }

    /** KEY=VALUE pairs (a Hadoop configuration key: letters, digits, '.', '_', '-'; a value that is not empty). */
    static Map<String, String> settings(List<String> values, String flag) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String value : values) {
            int equals = value.indexOf('=');
            String key = equals < 0 ? "" : value.substring(0, equals);
            if (!key.matches("[A-Za-z][A-Za-z0-9._-]*") || equals == value.length() - 1) {
                throw TestbedException.invalidValue(
                        value, "--" + flag, "expected KEY=VALUE, e.g. cloudtalk.hdfs.write.evaluator=refined");
            }
            settings.put(key, value.substring(equals + 1));
        }
        return settings;
    }
}
