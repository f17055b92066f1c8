package org.cloudtalk.itchy.technique;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import org.cloudtalk.itchy.ItchyMode;
import org.cloudtalk.itchy.store.Generations;
import org.cloudtalk.itchy.store.JobRecord;

/**
 * What the tasks of one run (a first job or an increment) are told: the technique, the increment number, the run's
 * generation and the committed ones it may read, the datasets (new ones too) and the outputs so far.
 */
public record Run(
        ItchyMode mode,
        int increment,
        int generation,
        Generations visible,
        List<JobRecord.Dataset> datasets,
        Set<Integer> newIds,
        List<String> outputs) {
    public Run {
        requireNonNull(mode, "mode is null");
        requireNonNull(visible, "visible is null");
        datasets = List.copyOf(datasets);
        newIds = Set.copyOf(newIds);
        outputs = List.copyOf(outputs);
    }

    public Run withOutputs(List<String> other) {
        return new Run(mode, increment, generation, visible, datasets, newIds, other);
    }
}
