package org.cloudtalk.testbed.net;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kernel settings of one host's network namespace (its own TCP stack), changed for a run and put back afterwards:
 * {@link #set} answers what it replaced, which {@link #set} with that answer restores.
 */
public final class Sysctls {
    private Sysctls() {}

    /** Sets each of {@code values} in {@code namespace}; returns the values they had, in the same order. */
    public static Map<String, String> set(String namespace, Map<String, String> values) {
        Map<String, String> before = new LinkedHashMap<>();
        for (Map.Entry<String, String> setting : values.entrySet()) {
            before.put(
                    setting.getKey(),
                    Commands.inNamespace(namespace, "sysctl", "-n", setting.getKey())
                            .strip());
            Commands.inNamespace(namespace, "sysctl", "-q", "-w", setting.getKey() + "=" + setting.getValue());
        }
        return before;
    }
}
