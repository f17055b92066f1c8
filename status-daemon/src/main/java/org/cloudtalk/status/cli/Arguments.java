package org.cloudtalk.status.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options and positional arguments, checked against the options a command knows. */
record Arguments(Map<String, List<String>> options, List<String> positional) {
    static Arguments parse(String[] args, Set<String> known) throws UsageException {
        Map<String, List<String>> options = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                positional.add(arg);
                continue;
            }
            String name = arg.substring(2);
            if (!known.contains(name)) {
                throw new UsageException("unknown option " + arg);
            }
            if (i + 1 >= args.length) {
                throw new UsageException("option " + arg + " needs a value");
            }
            options.computeIfAbsent(name, unused -> new ArrayList<>()).add(args[++i]);
        }
        return new Arguments(options, positional);
    }

    String last(String name) {
        List<String> values = options.get(name);
        return values == null ? null : values.get(values.size() - 1);
    }

    List<String> all(String name) {
        return options.getOrDefault(name, List.of());
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
