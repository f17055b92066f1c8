package org.cloudtalk.itchy.decision;

import java.util.Locale;
import org.cloudtalk.itchy.ItchyMode;

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
    public record Sample(
            double avgRuntimeMillis, double avgValSize, double avgSelectivity, long records, long distinctKeys) {
        @Override
        public String toString() {
            if (records == 0) {
                return "no records to sample (empty input)"; // averages over nothing would read as measured zeros
            }
            return String.format(
                    Locale.ROOT,
                    "avgRuntime=%.4f ms, avgValSize=%.1f B, avgSelectivity=%.2f (%d records, %d distinct keys)",
                    avgRuntimeMillis,
                    avgValSize,
                    avgSelectivity,
                    records,
                    distinctKeys);
        }

        /**
         * Whether keys repeat so much that any increment will touch most of them: fewer than one distinct key per
         * 100 intermediate values in the sample. Algorithm 2 does not weigh this; it is reported as a warning.
         */
        public boolean fewDistinctKeys() {
            double outputs = avgSelectivity * records;
            return outputs >= 100 && distinctKeys * 100 < outputs;
        }
    }

    /** A warning to show with the decision when the sample predicts little gain from any increment, else empty. */
    public static String cardinalityWarning(Sample sample, boolean mergeFunctionSpecified) {
        if (mergeFunctionSpecified || !sample.fewDistinctKeys()) {
            return "";
        }
        return "; warning: only " + sample.distinctKeys() + " distinct keys in the sample, so every increment is likely"
                + " to touch most keys: QMC would re-read most of the base input and MO most of the stored values,"
                + " little faster than a recompute (a merge function would avoid both)";
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
