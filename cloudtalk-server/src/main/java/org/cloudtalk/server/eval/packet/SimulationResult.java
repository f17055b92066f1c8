package org.cloudtalk.server.eval.packet;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * The helper's answer: each flow's start and finish in seconds from the simulation's start (finish empty when it did
 * not finish within the helper's horizon), and the packets dropped at full port buffers.
 */
public record SimulationResult(Map<String, Times> flows, long drops) {
    public record Times(double start, OptionalDouble finish) {}

    public SimulationResult {
        flows = Map.copyOf(flows);
    }

    /** When the last flow finished: the query's completion time, +∞ if some flow never finished. */
    public double completionSeconds() {
        double last = 0;
        for (Times times : flows.values()) {
            last = Math.max(last, times.finish().orElse(Double.POSITIVE_INFINITY));
        }
        return last;
    }
}
