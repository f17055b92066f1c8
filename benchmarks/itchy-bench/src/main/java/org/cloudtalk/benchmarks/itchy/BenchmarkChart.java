package org.cloudtalk.benchmarks.itchy;

import java.io.IOException;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.style.Styler;

/**
 * The Itchy benchmark's figures, drawn with XChart as SVG and PNG, one group of bars per job and technique measured (the
 * decision model's choice marked *): the runtimes on a log scale (plain first job, Itchy first job, increment, full
 * recompute; a job's techniques share its plain first job and recompute), and the HBase storage.
 */
final class BenchmarkChart {
    private BenchmarkChart() {}

    /** Writes {@code BASE.svg} and {@code .png} (runtimes), {@code BASE-storage.svg} and {@code .png}; returns them. */
    static List<String> write(List<ItchyBenchmark.Row> rows, String base) throws IOException {
        save(runtimes(rows), base);
        save(storage(rows), base + "-storage");
        return List.of(base + ".svg", base + ".png", base + "-storage.svg", base + "-storage.png");
    }

    private static void save(CategoryChart chart, String file) throws IOException {
        VectorGraphicsEncoder.saveVectorGraphic(chart, file, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        BitmapEncoder.saveBitmap(chart, file, BitmapEncoder.BitmapFormat.PNG);
    }

    static CategoryChart runtimes(List<ItchyBenchmark.Row> rows) {
        CategoryChart chart = chart("Itchy: runtimes (* = the decision model's technique)", "Runtime (s, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        // XChart anchors a bar chart's axis at 0, which a log axis refuses: start at the decade below the fastest time.
        double fastest = rows.stream()
                .flatMapToDouble(
                        row -> DoubleStream.of(row.plainFirst(), row.itchyFirst(), row.increment(), row.recompute()))
                .min()
                .orElse(1);
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(fastest))));
        addSeries(chart, rows, "plain first job", ItchyBenchmark.Row::plainFirst);
        addSeries(chart, rows, "Itchy first job", ItchyBenchmark.Row::itchyFirst);
        addSeries(chart, rows, "increment", ItchyBenchmark.Row::increment);
        addSeries(chart, rows, "full recompute", ItchyBenchmark.Row::recompute);
        return chart;
    }

    static CategoryChart storage(List<ItchyBenchmark.Row> rows) {
        CategoryChart chart = chart("Itchy: HBase storage (* = the decision model's technique)", "HBase storage (MB)");
        chart.getStyler().setLegendVisible(false);
        addSeries(chart, rows, "HBase storage", row -> row.hbaseBytes() / 1048576.0);
        return chart;
    }

    private static CategoryChart chart(String title, String yAxis) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(500)
                .title(title)
                .xAxisTitle("job, technique")
                .yAxisTitle(yAxis)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.#");
        return chart;
    }

    private static void addSeries(
            CategoryChart chart,
            List<ItchyBenchmark.Row> rows,
            String name,
            ToDoubleFunction<ItchyBenchmark.Row> value) {
        List<String> categories = rows.stream()
                .map(row -> row.job() + " " + row.technique() + (row.chosen() ? "*" : ""))
                .toList();
        chart.addSeries(
                name, categories, rows.stream().map(value::applyAsDouble).toList());
    }
}
