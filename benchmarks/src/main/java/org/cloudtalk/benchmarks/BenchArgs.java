package org.cloudtalk.benchmarks;

import java.util.regex.Pattern;
import org.cloudtalk.common.cli.Launchers;

/**
 * A benchmark's numeric arguments, as {@code bin/cloudtalk bench --help} names them: a value that is not a whole
 * number in range is a wrong command line (exit 64), said in one line rather than as a stack trace.
 */
public final class BenchArgs {
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

    private BenchArgs() {}

    /** {@code args[index]} as a whole number of at least 1, or {@code otherwise} when it is not given. */
    public static int count(String[] args, int index, String name, int otherwise) {
        return (int) number(args, index, name, otherwise, 1, Integer.MAX_VALUE);
    }

    /** {@code args[index]} as any whole number (a random seed), or {@code otherwise} when it is not given. */
    public static long seed(String[] args, int index, String name, long otherwise) {
        return number(args, index, name, otherwise, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private static long number(String[] args, int index, String name, long otherwise, long min, long max) {
        if (args.length <= index) {
            return otherwise;
        }
        String value = args[index];
        try {
            if (WHOLE.matcher(value).matches()) {
                long number = Long.parseLong(value);
                if (number >= min && number <= max) {
                    return number;
                }
            }
        } catch (NumberFormatException e) {
            // more digits than a long holds: refused below
        }
        System.err.println("cloudtalk bench: Invalid value " + value + " for " + name + ": a whole number"
                + (min == 1 ? " between 1 and " + max : ""));
        System.exit(Launchers.USAGE);
        throw new IllegalStateException("unreachable");
    }
}
