package org.cloudtalk.testbed.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.testbed.TestbedException;

/**
 * {@code --name value} options and positional arguments of one subcommand. For {@code exec}, everything after the
 * first positional argument belongs to the command being run.
 */
record Options(Map<String, String> values, List<String> positional) {
    static Options parse(List<String> args, Set<String> known) {
        return parse(args, known, false);
    }

    static Options parseUntilCommand(List<String> args, Set<String> known) {
        return parse(args, known, true);
    }

    private static Options parse(List<String> args, Set<String> known, boolean stopAtPositional) {
        Map<String, String> values = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || (stopAtPositional && !positional.isEmpty())) {
                positional.add(arg);
                continue;
            }
            String name = arg.substring(2);
            if (!known.contains(name)) {
                throw new TestbedException("unknown option " + arg + " (known: --" + String.join(", --", known) + ")");
            }
            if (i + 1 >= args.size()) {
                throw new TestbedException("option " + arg + " needs a value");
            }
            values.put(name, args.get(++i));
        }
        return new Options(values, positional);
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    int number(String name, int fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new TestbedException("Invalid value " + value + " for --" + name + ": not a whole number");
        }
    }

    /** A comma-separated list of fractions in (0, 1). */
    List<Double> fractions(String name, List<Double> fallback) {
        String value = values.get(name);
        if (value == null) {
            return fallback;
        }
        List<Double> fractions = new ArrayList<>();
        for (String part : value.split(",")) {
            try {
                double fraction = Double.parseDouble(part.trim());
                if (fraction <= 0 || fraction >= 1) {
                    throw new NumberFormatException();
                }
                fractions.add(fraction);
            } catch (NumberFormatException e) {
                throw new TestbedException(
                        "Invalid value " + value + " for --" + name + ": expected fractions in (0, 1), e.g. 0.1,0.5");
            }
        }
        return List.copyOf(fractions);
    }
}
