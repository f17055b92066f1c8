package org.cloudtalk.testbed.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.experiment.Measurement;
import org.cloudtalk.testbed.experiment.Percentiles;

/**
 * The summary of an experiment: per busy fraction and metric, over the valid runs only, the average, median and 99th
 * percentile of every raw value, the median of the per-repeat 99th percentiles and the spread (max - min) of the
 * per-repeat averages; plus how many runs the fidelity check left out. The pooled p99 of a few repeats follows the one
 * run with the worst tail; the median of per-repeat p99s does not, and it is what compares two subjects measured in
 * the same runs.
 */
public record Summary(List<Row> rows, int runs, int invalidRuns) {
    public Summary {
        rows = List.copyOf(rows);
    }

    /** One line of the table. */
    public record Row(
            double busyFraction,
            String metric,
            int values,
            double avg,
            double p50,
            double p99,
            double repeatP99Median,
            double spread) {}

    public static Summary of(Collection<RunRecord> records) {
        List<RunRecord> valid =
                records.stream().filter(r -> r.result().fidelity().valid()).toList();
        Map<Double, Map<String, Map<Integer, List<Double>>>> grouped = new TreeMap<>();
        for (RunRecord record : valid) {
            for (Measurement m : record.result().measurements()) {
                grouped.computeIfAbsent(record.busyFraction(), b -> new TreeMap<>())
                        .computeIfAbsent(m.metric(), k -> new TreeMap<>())
                        .computeIfAbsent(record.repeat(), r -> new ArrayList<>())
                        .add(m.value());
            }
        }
        List<Row> rows = new ArrayList<>();
        grouped.forEach((busy, metrics) -> metrics.forEach((metric, repeats) -> {
            List<Double> all =
                    repeats.values().stream().flatMap(List::stream).sorted().collect(Collectors.toList());
            List<Double> means = repeats.values().stream().map(Summary::mean).toList();
            List<Double> repeatP99s = repeats.values().stream()
                    .map(values ->
                            Percentiles.nearestRank(values.stream().sorted().toList(), 0.99))
                    .sorted()
                    .toList();
            double spread = means.stream()
                            .mapToDouble(Double::doubleValue)
                            .max()
                            .orElse(0)
                    - means.stream().mapToDouble(Double::doubleValue).min().orElse(0);
            rows.add(new Row(
                    busy,
                    metric,
                    all.size(),
                    mean(all),
                    Percentiles.nearestRank(all, 0.50),
                    Percentiles.nearestRank(all, 0.99),
                    Percentiles.nearestRank(repeatP99s, 0.50),
                    spread));
        }));
        return new Summary(rows, records.size(), records.size() - valid.size());
    }

    /** The summary as a Markdown table. */
    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("| busy | metric | n | avg | p50 | p99 | p99 per repeat, median | spread over repeats |\n");
        out.append("|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            out.append(String.format(
                    "| %.0f%% | %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
                    row.busyFraction() * 100,
                    row.metric(),
                    row.values(),
                    row.avg(),
                    row.p50(),
                    row.p99(),
                    row.repeatP99Median(),
                    row.spread()));
        }
        out.append(String.format("%n%d runs, %d left out as invalid by the fidelity check.%n", runs, invalidRuns));
        return out.toString();
    }

    static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }
}
