package org.cloudtalk.benchmarks;

import org.cloudtalk.common.cli.Launchers;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.common.config.ConfigValues;

/**
 * A benchmark's numeric arguments, as {@code bin/cloudtalk bench --help} names them: a value that is not a whole
 * number in range is a wrong command line (exit 64), said in one line rather than as a stack trace.
 */
public final class BenchArgs {
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
            return ConfigValues.parse(name, value, min, max);
        } catch (ConfigException e) {
            System.err.println("cloudtalk bench: " + e.getMessage());
            System.exit(Launchers.USAGE);
            throw new IllegalStateException("unreachable", e);
        }
    }
}
