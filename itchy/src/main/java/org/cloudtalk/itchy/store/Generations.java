package org.cloudtalk.itchy.store;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The generations whose cells a reader may see: those of the committed runs of a job, in commit order. Every run (an
 * attempt of a first job or of an increment) stores its cells under a generation of its own, which only the job record
 * of a successful commit names, so cells of a run that failed or lost a race are never read.
 */
public record Generations(List<Integer> committed) {
    public static final Generations NONE = new Generations(List.of());

    public Generations {
        committed = List.copyOf(committed);
    }

    public boolean contains(long generation) {
        // Few increments per job: a linear walk over a short list beats building a set per task.
        for (int visible : committed) {
            if (visible == generation) {
                return true;
            }
        }
        return false;
    }

    /** For a Hadoop configuration value: comma-separated. */
    public String encode() {
        return committed.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public static Generations parse(String[] values) {
        return new Generations(Arrays.stream(values).map(Integer::valueOf).toList());
    }
}
