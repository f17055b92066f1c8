package org.cloudtalk.client;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The server's answer: each variable's address, the evaluator used, the estimated completion time where there is one,
 * how many status figures were asked for / arrived / were reused, whether candidates were sampled, the server's
 * time spent, and — when asked to explain — each variable's candidates with their heuristic score (bytes/s of the
 * scarcest resource; +∞ where nothing constrains the candidate).
 */
public record QueryResult(
        Map<String, String> bindings,
        String evaluator,
        OptionalDouble estimatedCompletionSeconds,
        int statusAsked,
        int statusAnswered,
        int statusReused,
        boolean sampled,
        long elapsedMicros,
        Map<String, Map<String, Double>> candidateScores) {
    public QueryResult {
        bindings = Map.copyOf(requireNonNull(bindings, "bindings is null"));
        candidateScores = Map.copyOf(requireNonNull(candidateScores, "candidateScores is null"));
        requireNonNull(evaluator, "evaluator is null");
        requireNonNull(estimatedCompletionSeconds, "estimatedCompletionSeconds is null");
    }
}
