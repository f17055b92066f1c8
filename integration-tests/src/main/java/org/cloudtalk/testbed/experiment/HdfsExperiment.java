package org.cloudtalk.testbed.experiment;

import java.util.List;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;

/**
 * What the HDFS experiments share: 64 MiB files (one block) with 3 replicas, and a time per file in seconds, charted
 * with its 99th percentile against what the experiment's busy fraction means.
 */
abstract class HdfsExperiment implements Experiment {
    static final long BYTES = 64L << 20;
    static final int REPLICATION = 3;

    private final String name;
    private final List<Double> defaultBusy;
    private final String xAxisTitle;
    private final String chartTitle;
    private final List<String> chartMetrics;

    HdfsExperiment(
            String name, List<Double> defaultBusy, String xAxisTitle, String chartTitle, List<String> chartMetrics) {
        this.name = name;
        this.defaultBusy = List.copyOf(defaultBusy);
        this.xAxisTitle = xAxisTitle;
        this.chartTitle = chartTitle;
        this.chartMetrics = List.copyOf(chartMetrics);
    }

    /** {@code metric} followed by each placement's label. */
    static List<String> perPlacement(String metric) {
        return List.of(HdfsPlacement.values()).stream()
                .map(p -> metric + p.label())
                .toList();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<Double> defaultBusy() {
        return defaultBusy;
    }

    @Override
    public final List<String> chartMetrics() {
        return chartMetrics;
    }

    @Override
    public final String xAxisTitle() {
        return xAxisTitle;
    }

    @Override
    public final String yAxisTitle() {
        return "seconds per file (avg; p99 dashed)";
    }

    @Override
    public final boolean chartP99() {
        return true;
    }

    @Override
    public final String chartTitle() {
        return chartTitle;
    }
}
