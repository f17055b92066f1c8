package org.cloudtalk.client;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The server's answer: each variable's address, the evaluator used, the estimated completion time where there is one,
 * how many status figures were asked for / arrived / were reused, whether candidates were sampled, and the server's
 * time spent.
 */
public record QueryResult(
        Map<String, String> bindings,
        String evaluator,
        OptionalDouble estimatedCompletionSeconds,
        int statusAsked,
        int statusAnswered,
        int statusReused,
        boolean sampled,
        long elapsedMicros) {
    public QueryResult {
        bindings = Map.copyOf(requireNonNull(bindings, "bindings is null"));
        requireNonNull(evaluator, "evaluator is null");
        requireNonNull(estimatedCompletionSeconds, "estimatedCompletionSeconds is null");
    }
}
