package org.cloudtalk.testbed.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.Check;
import org.cloudtalk.testbed.experiment.Experiment;
import org.cloudtalk.testbed.experiment.Measurement;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes an experiment's results to a directory: {@code NAME-raw.csv} (every measurement), {@code NAME-runs.csv}
 * (each run's fidelity verdict and checks), {@code NAME-summary.md} and {@code NAME.png} / {@code NAME.svg} (the
 * chart metrics' averages against the busy fraction, valid runs only), drawn with XChart.
 */
public final class Reports {
    /** The CSV dialect of the raw and runs files: RFC 4180, a field quoted only where it must be. */
    static final CSVFormat CSV =
            CSVFormat.DEFAULT.builder().setRecordSeparator('\n').build();

    private Reports() {}

    public static void write(Experiment experiment, List<RunRecord> records, Summary summary, Path dir) {
        String name = experiment.name();
        try {
            Files.createDirectories(dir);
            try (CSVPrinter raw = CSV.print(dir.resolve(name + "-raw.csv"), StandardCharsets.UTF_8);
                    CSVPrinter runs = CSV.print(dir.resolve(name + "-runs.csv"), StandardCharsets.UTF_8)) {
                raw.printRecord("experiment", "busy", "repeat", "valid", "metric", "subject", "value");
                runs.printRecord(
                        "experiment",
                        "busy",
                        "repeat",
                        "valid",
                        "mean_idle",
                        "min_idle",
                        "worst_link_share",
                        "checks_passed",
                        "problems",
                        "checks");
                for (RunRecord record : records) {
                    boolean valid = record.result().fidelity().valid();
                    String busy = number(record.busyFraction());
                    for (Measurement m : record.result().measurements()) {
                        raw.printRecord(name, busy, record.repeat(), valid, m.metric(), m.subject(), number(m.value()));
                    }
                    var fidelity = record.result().fidelity();
                    runs.printRecord(
                            name,
                            busy,
                            record.repeat(),
                            valid,
                            number(fidelity.meanIdle()),
                            number(fidelity.minIdle()),
                            number(fidelity.worstLinkShare()),
                            record.result().checks().stream().allMatch(Check::passed),
                            RunText.problems(fidelity.problems()),
                            RunText.checks(record.result().checks()));
                }
            }
            Files.writeString(dir.resolve(name + "-summary.md"), "# " + name + "\n\n" + summary.toMarkdown());
            XYChart chart = chart(experiment, summary);
            BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            VectorGraphicsEncoder.saveVectorGraphic(
                    chart, dir.resolve(name).toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new TestbedException("cannot write results to " + dir + ": " + e.getMessage(), e);
        }
    }

    static XYChart chart(Experiment experiment, Summary summary) {
        XYChart chart = new XYChartBuilder()
                .width(800)
                .height(500)
                .title(experiment.chartTitle() + " (" + (summary.runs() - summary.invalidRuns()) + " valid runs, "
                        + summary.invalidRuns() + " left out)")
                .xAxisTitle(experiment.xAxisTitle())
                .yAxisTitle(experiment.yAxisTitle())
                .build();
        chart.getStyler().setYAxisMin(0.0);
        for (String metric : experiment.chartMetrics()) {
            List<Summary.Row> rows = summary.rows().stream()
                    .filter(r -> r.metric().equals(metric))
                    .toList();
            if (rows.isEmpty()) {
                continue;
            }
            chart.addSeries(
                            metric,
                            rows.stream().map(r -> r.busyFraction() * 100).toList(),
                            rows.stream().map(Summary.Row::avg).toList())
                    .setMarker(SeriesMarkers.CIRCLE);
            if (experiment.chartP99()) {
                chart.addSeries(
                                metric + " p99",
                                rows.stream().map(r -> r.busyFraction() * 100).toList(),
                                rows.stream().map(Summary.Row::p99).toList())
                        .setMarker(SeriesMarkers.CIRCLE)
                        .setLineStyle(SeriesLines.DASH_DASH);
            }
        }
        return chart;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }
}
