package org.cloudtalk.itchy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Itchy benchmark's figure as a self-contained SVG (no plotting library needed): per job, runtimes on a log scale
 * (plain first job, Itchy first job, each technique's increment, full recompute), and HBase storage per technique.
 */
final class BenchmarkChart {
    private static final int BAR = 18;
    private static final int GAP = 28;
    private static final int HEIGHT = 260;
    private static final int TOP = 40;
    /** Room under the axis for the bars' labels, written vertically. */
    private static final int LABELS = 170;

    private static final String[] COLOURS = {"#7f7f7f", "#1f77b4", "#2ca02c", "#98df8a", "#d62728", "#ff7f0e"};

    private BenchmarkChart() {}

    record Bar(String label, double value, String colour) {}

    static String svg(List<ItchyBenchmark.Row> rows) {
        Map<String, List<Bar>> runtimes = new LinkedHashMap<>();
        Map<String, List<Bar>> storage = new LinkedHashMap<>();
        for (ItchyBenchmark.Row row : rows) {
            List<Bar> bars = runtimes.computeIfAbsent(row.job(), job -> new ArrayList<>());
            if (row.chosen()) {
                bars.add(new Bar("plain first job", row.plainFirst(), COLOURS[0]));
                bars.add(new Bar("Itchy first job (" + row.technique() + ")", row.itchyFirst(), COLOURS[1]));
            }
            bars.add(new Bar(
                    row.technique() + " increment" + (row.chosen() ? "" : " (not chosen)"),
                    row.increment(),
                    row.chosen() ? COLOURS[2] : COLOURS[3]));
            storage.computeIfAbsent(row.job(), job -> new ArrayList<>())
                    .add(new Bar(row.technique().name(), row.hbaseBytes() / 1048576.0, COLOURS[5]));
        }
        rows.stream().filter(ItchyBenchmark.Row::chosen).forEach(row -> runtimes.get(row.job())
                .add(new Bar("full recompute", row.recompute(), COLOURS[4])));
        StringBuilder svg = new StringBuilder();
        int width = Math.max(panelWidth(runtimes), panelWidth(storage)) + 90;
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
                        + "font-size=\"11\">%n",
                width,
                2 * (HEIGHT + TOP + LABELS + 30)));
        panel(svg, runtimes, 0, "Runtime (s, log scale)", true);
        panel(svg, storage, HEIGHT + TOP + LABELS + 30, "HBase storage (MB)", false);
        return svg.append("</svg>\n").toString();
    }

    private static int panelWidth(Map<String, List<Bar>> groups) {
        return groups.values().stream()
                .mapToInt(bars -> bars.size() * BAR + GAP)
                .sum();
    }

    private static void panel(StringBuilder svg, Map<String, List<Bar>> groups, int y0, String title, boolean log) {
        double max = groups.values().stream()
                .flatMap(List::stream)
                .mapToDouble(Bar::value)
                .max()
                .orElse(1);
        double min = log ? 0.1 : 0;
        double top = log ? Math.pow(10, Math.ceil(Math.log10(Math.max(max, 1)))) : max * 1.1;
        int baseY = y0 + TOP + HEIGHT;
        svg.append(text(60, y0 + 20, title, "start", "bold"));
        svg.append(String.format(
                Locale.ROOT, "<line x1=\"60\" y1=\"%d\" x2=\"60\" y2=\"%d\" stroke=\"black\"/>%n", y0 + TOP, baseY));
        for (double tick : log ? logTicks(top) : List.of(0.0, top / 2, top)) {
            int y = baseY - (int) Math.round(scale(tick, min, top, log) * HEIGHT);
            svg.append(text(55, y + 4, String.format(Locale.ROOT, tick < 1 ? "%.1f" : "%.0f", tick), "end", "normal"));
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"60\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    y,
                    60 + panelWidth(groups),
                    y));
        }
        int x = 70;
        for (Map.Entry<String, List<Bar>> group : groups.entrySet()) {
            int groupX = x;
            for (Bar bar : group.getValue()) {
                int h = (int) Math.round(scale(Math.max(bar.value(), min), min, top, log) * HEIGHT);
                svg.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s: %.2f</title></rect>%n",
                        x,
                        baseY - h,
                        BAR - 2,
                        h,
                        bar.colour(),
                        bar.label(),
                        bar.value()));
                svg.append(text(
                        x + BAR / 2 - 1,
                        baseY - h - 3,
                        String.format(Locale.ROOT, "%.1f", bar.value()),
                        "middle",
                        "normal"));
                svg.append(String.format(
                        Locale.ROOT,
                        "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\" text-anchor=\"end\" "
                                + "font-size=\"10\">%s</text>%n",
                        x + 12,
                        baseY + 6,
                        x + 12,
                        baseY + 6,
                        bar.label()));
                x += BAR;
            }
            svg.append(text((groupX + x) / 2, baseY + LABELS + 16, group.getKey(), "middle", "bold"));
            x += GAP;
        }
    }

    private static List<Double> logTicks(double top) {
        List<Double> ticks = new ArrayList<>();
        for (double tick = 0.1; tick <= top * 1.001; tick *= 10) {
            ticks.add(tick);
        }
        return ticks;
    }

    private static double scale(double value, double min, double top, boolean log) {
        return log ? Math.log10(value / min) / Math.log10(top / min) : value / top;
    }

    private static String text(int x, int y, String text, String anchor, String weight) {
        return String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>%n",
                x,
                y,
                anchor,
                weight,
                text);
    }
}
