package org.cloudtalk.server.eval.flow;

import java.util.List;

/**
 * The estimator's outcome: when each flow ends (seconds from now; NaN for an endless flow, +∞ for one that can never
 * finish) and when the whole task does: the latest end of any finite flow (NaN if there is none).
 */
public record FlowEstimate(double completionSeconds, List<Double> flowEndSeconds) {
    public FlowEstimate {
        flowEndSeconds = List.copyOf(flowEndSeconds);
    }
}
