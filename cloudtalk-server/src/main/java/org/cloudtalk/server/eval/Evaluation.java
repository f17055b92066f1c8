package org.cloudtalk.server.eval;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * An evaluator's answer: the binding, and the flow estimator's completion time for it in seconds where the query has
 * finite flows that can all complete (empty when every flow is endless, when some finite flow can never complete, or
 * when the evaluator did not estimate); {@code notes} say what the answer rests on when that is not the whole search
 * (e.g. a budget cut it short); {@code cut} says why, when a search stopped short of finishing.
 */
public record Evaluation(
        Binding binding, OptionalDouble completionSeconds, List<String> notes, Optional<SearchCut> cut) {
    public Evaluation {
        requireNonNull(binding, "binding is null");
        requireNonNull(completionSeconds, "completionSeconds is null");
        requireNonNull(cut, "cut is null");
        if (completionSeconds.isPresent() && !Double.isFinite(completionSeconds.getAsDouble())) {
            // "Never" is no number of seconds: the API documents it as null.
            completionSeconds = OptionalDouble.empty();
        }
        notes = List.copyOf(notes);
    }

    public Evaluation(Binding binding, OptionalDouble completionSeconds, List<String> notes) {
        this(binding, completionSeconds, notes, Optional.empty());
    }

    public Evaluation(Binding binding, OptionalDouble completionSeconds) {
        this(binding, completionSeconds, List.of());
    }
}
