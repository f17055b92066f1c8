package org.cloudtalk.testbed.hadoop;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --option value} pairs of the testbed's HDFS client mains (they run in hosts' namespaces with Hadoop's
 * class path only, so no CLI library): every option is required.
 */
record MainOptions(Map<String, String> values) {
    MainOptions {
        values = Map.copyOf(values);
    }

    /** Parses {@code args}; throws {@link IllegalArgumentException} naming the first missing or malformed option. */
    static MainOptions parse(String[] args, List<String> required) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got " + String.join(" ", args));
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        for (String option : required) {
            if (!options.containsKey(option)) {
                throw new IllegalArgumentException("--" + option + " is missing");
            }
        }
        return new MainOptions(options);
    }

    String get(String option) {
        return values.get(option);
    }

    int integer(String option) {
        return Integer.parseInt(get(option));
    }

    long number(String option) {
        return Long.parseLong(get(option));
    }

    java.time.Duration millis(String option) {
        return java.time.Duration.ofMillis(number(option));
    }
}
