package org.cloudtalk.testbed.net;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.Undo;

/**
 * Kernel settings of one host's network namespace (its own TCP stack), changed for a run and put back afterwards:
 * {@link #set} answers what it replaced, which {@link #set} with that answer restores; {@link #onHosts} does both for
 * several hosts.
 */
public final class Sysctls {
    private Sysctls() {}

    /** Sets each of {@code values} in {@code namespace}; returns the values they had, in the same order. */
    public static Map<String, String> set(String namespace, Map<String, String> values) {
        Map<String, String> before = new LinkedHashMap<>();
        for (Map.Entry<String, String> setting : values.entrySet()) {
            before.put(setting.getKey(), read(namespace, setting.getKey()));
            write(namespace, setting.getKey(), setting.getValue());
        }
        return before;
    }

    /**
     * Sets {@code values} in every one of {@code hosts}; closing the answer puts back what each host had. Each old
     * value is recorded before its setting is written, so a failure part-way puts back exactly what was changed.
     */
    public static Restore onHosts(List<Host> hosts, Map<String, String> values) {
        Restore restore = new Restore();
        Undo.onFailure(
                () -> {
                    for (Host host : hosts) {
                        for (Map.Entry<String, String> setting : values.entrySet()) {
                            restore.remember(
                                    host.namespace(), setting.getKey(), read(host.namespace(), setting.getKey()));
                            write(host.namespace(), setting.getKey(), setting.getValue());
                        }
                    }
                },
                restore::close);
        return restore;
    }

    private static String read(String namespace, String key) {
        return Commands.inNamespace(namespace, "sysctl", "-n", key).strip();
    }

    private static void write(String namespace, String key, String value) {
        Commands.inNamespace(namespace, "sysctl", "-q", "-w", key + "=" + value);
    }

    /** The settings {@link #onHosts} replaced, per namespace; {@link #close} tries every namespace. */
    public static final class Restore implements AutoCloseable {
        private final Map<String, Map<String, String>> before = new LinkedHashMap<>();

        private Restore() {}

        private void remember(String namespace, String key, String value) {
            before.computeIfAbsent(namespace, ns -> new LinkedHashMap<>()).put(key, value);
        }

        @Override
        public void close() {
            Undo.each(before.entrySet(), host -> set(host.getKey(), host.getValue()));
        }
    }
}
