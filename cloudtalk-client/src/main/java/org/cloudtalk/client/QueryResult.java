package org.cloudtalk.client;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The server's answer: each variable's address, the evaluator used, the estimated completion time where there is one,
 * how many status figures were asked for / arrived / were reused, whether candidates were sampled, the server's
 * time spent, the server's notes (e.g. that a search was cut short), and — when asked to explain — each variable's
 * candidates with their heuristic score (bytes/s of the scarcest resource; +∞ where nothing constrains the candidate),
 * in the order the server sent them; and the answer's JSON as the server sent it.
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
        List<String> notes,
        Map<String, Map<String, Double>> candidateScores,
        String json) {
    public QueryResult {
        bindings = Map.copyOf(requireNonNull(bindings, "bindings is null"));
        notes = List.copyOf(requireNonNull(notes, "notes is null"));
        Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
        requireNonNull(candidateScores, "candidateScores is null")
                .forEach((variable, byCandidate) ->
                        scores.put(variable, Collections.unmodifiableMap(new LinkedHashMap<>(byCandidate))));
        candidateScores = Collections.unmodifiableMap(scores);
        requireNonNull(evaluator, "evaluator is null");
        requireNonNull(estimatedCompletionSeconds, "estimatedCompletionSeconds is null");
        requireNonNull(json, "json is null");
    }
}
