package org.cloudtalk.testbed;

import java.util.Arrays;
import java.util.List;
import org.cloudtalk.testbed.net.Commands;

/** What exists on this machine under a testbed's name prefix, whether or not a state file lists it. */
public final class Leftovers {
    private Leftovers() {}

    /** Namespaces named {@code prefix-*}. */
    public static List<String> namespaces(String prefix) {
        return Arrays.stream(Commands.run("ip", "netns", "list").split("\n"))
                .map(line -> line.split("\\s+")[0])
                .filter(name -> name.startsWith(prefix + "-"))
                .toList();
    }

    /** Links of the root namespace named {@code prefix-*}. */
    public static List<String> rootLinks(String prefix) {
        return Arrays.stream(Commands.run("ip", "-o", "link", "show").split("\n"))
                .map(line -> line.split(":\\s+"))
                .filter(fields -> fields.length > 1)
                .map(fields -> fields[1].replaceFirst("@.*", ""))
                .filter(name -> name.startsWith(prefix + "-"))
                .toList();
    }
}
