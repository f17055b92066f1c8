package org.cloudtalk.client.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The evaluators a query may ask for ({@link HttpApi.Param#EVALUATOR}), by their names on the wire. */
public enum EvaluatorName {
    HEURISTIC,
    FLOW,
    EXHAUSTIVE,
    REFINED,
    PACKET;

    /** The name in the API: lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The evaluator named {@code name} (in any case) if it is one a plugin may ask for: all but {@link #PACKET}, which
     * scores no disk flows and no gathered load, so a plugin's every query would be refused. Empty for other names.
     */
    public static Optional<EvaluatorName> forPlugins(String name) {
        return Arrays.stream(values())
                .filter(evaluator -> evaluator != PACKET && evaluator.wireName().equalsIgnoreCase(name.trim()))
                .findFirst();
    }

    /** The evaluator named {@code wireName}; the exception's message lists the names there are. */
    public static EvaluatorName fromWireName(String wireName) {
        for (EvaluatorName evaluator : values()) {
            if (evaluator.wireName().equals(wireName)) {
                return evaluator;
            }
        }
        List<String> names =
                Arrays.stream(values()).map(EvaluatorName::wireName).toList();
        throw new IllegalArgumentException("unknown evaluator '" + wireName + "'; use "
                + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
    }
}
