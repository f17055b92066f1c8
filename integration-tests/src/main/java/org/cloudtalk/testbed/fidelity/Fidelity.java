package org.cloudtalk.testbed.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.net.Link;

/**
 * Whether a run measured the system rather than the emulator: the machine kept at least {@link #MIN_IDLE} of its
 * CPU idle on average, and every link the load meant to saturate carried at least {@link #MIN_LINK_SHARE} of its
 * configured rate (as its shaper counted). A run that fails either is invalid: left out of summaries and figures.
 */
public record Fidelity(double meanIdle, double minIdle, double worstLinkShare, boolean valid, List<String> problems) {
    public static final double MIN_IDLE = 0.25;
    public static final double MIN_LINK_SHARE = 0.90;

    public Fidelity {
        problems = List.copyOf(problems);
    }

    /** The verdict on CPU idle {@code shares} and the saturated links' {@code rates} (bits/s) against {@code rate}. */
    public static Fidelity judge(List<Double> shares, Map<Link, Double> rates, long rateBits) {
        List<String> problems = new ArrayList<>();
        double mean = shares.stream().mapToDouble(Double::doubleValue).average().orElse(1);
        double min = shares.stream().mapToDouble(Double::doubleValue).min().orElse(1);
        if (mean < MIN_IDLE) {
            problems.add(String.format("CPU-bound: mean idle %.0f%% < %.0f%%", mean * 100, MIN_IDLE * 100));
        }
        double worst = 1;
        for (Map.Entry<Link, Double> entry : rates.entrySet()) {
            double share = entry.getValue() / rateBits;
            worst = Math.min(worst, share);
            if (share < MIN_LINK_SHARE) {
                problems.add(String.format(
                        "%s carried %.0f%% of its rate (< %.0f%%)", entry.getKey(), share * 100, MIN_LINK_SHARE * 100));
            }
        }
        return new Fidelity(mean, min, rates.isEmpty() ? Double.NaN : worst, problems.isEmpty(), problems);
    }

    /**
     * Both verdicts, for a run measured in two phases: valid when both are, the lower idle shares, the first one's
     * links; the second one's problems say which phase they come from.
     */
    public static Fidelity both(Fidelity first, Fidelity second, String secondPhase) {
        List<String> problems = new ArrayList<>(first.problems());
        second.problems().forEach(problem -> problems.add(problem + " (" + secondPhase + ")"));
        return new Fidelity(
                Math.min(first.meanIdle(), second.meanIdle()),
                Math.min(first.minIdle(), second.minIdle()),
                first.worstLinkShare(),
                first.valid() && second.valid(),
                problems);
    }
}
