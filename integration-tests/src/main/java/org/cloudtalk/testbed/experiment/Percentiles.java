package org.cloudtalk.testbed.experiment;

import java.util.List;

/** Percentiles as the project reports them. */
public final class Percentiles {
    private Percentiles() {}

    /** Nearest-rank percentile ({@code p} in 0..1) of sorted {@code values}; NaN when there are none. */
    public static double nearestRank(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
