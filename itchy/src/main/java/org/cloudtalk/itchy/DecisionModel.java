package org.cloudtalk.itchy;

import java.util.Locale;

/**
 * Algorithm 2: Merge when the user gave a merge function; otherwise MO when an intermediate value is no larger than a
 * QMC entry, or when values are small relative to the map function's cost (recomputing is dearer than storing);
 * QMC otherwise.
 */
public final class DecisionModel {
    /** A QMC entry as the chapter counts it: two longs (dataset and offset). */
    public static final int QMC_ENTRY_BYTES = 16;

    public static final double DEFAULT_THRESHOLD = 1000;

    /** What the first job's map sample showed. */
    public record Sample(double avgRuntimeMillis, double avgValSize, double avgSelectivity, long records) {
        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "avgRuntime=%.4f ms, avgValSize=%.1f B, avgSelectivity=%.2f (%d records)",
                    avgRuntimeMillis,
                    avgValSize,
                    avgSelectivity,
                    records);
        }
    }

    private DecisionModel() {}

    public static ItchyMode decide(Sample sample, boolean mergeFunctionSpecified, double threshold) {
        if (mergeFunctionSpecified) {
            return ItchyMode.MERGE;
        }
        if (sample.avgValSize() <= QMC_ENTRY_BYTES) {
            return ItchyMode.MO;
        }
        // Line 6 estimates the storage (avgValSize x avgSelectivity x records); line 7 decides on the ratio alone.
        double ratio = sample.avgValSize() / Math.max(sample.avgRuntimeMillis(), 1e-9);
        return ratio < threshold ? ItchyMode.MO : ItchyMode.QMC;
    }
}
