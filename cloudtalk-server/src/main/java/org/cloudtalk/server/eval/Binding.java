package org.cloudtalk.server.eval;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** Each variable's chosen value: canonical address text, or "disk". */
public record Binding(Map<String, String> values) {
    public Binding {
        values = Map.copyOf(requireNonNull(values, "values is null"));
    }

    public String valueOf(String variable) {
        String value = values.get(variable);
        if (value == null) {
            throw new IllegalArgumentException("variable " + variable + " is not bound");
        }
        return value;
    }
}
