package org.cloudtalk.testbed.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVRecord;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.experiment.Check;
import org.cloudtalk.testbed.experiment.Measurement;
import org.cloudtalk.testbed.experiment.RunResult;
import org.cloudtalk.testbed.fidelity.Fidelity;

/**
 * The runs of one experiment as {@link Reports} wrote them to a directory ({@code NAME-runs.csv} and
 * {@code NAME-raw.csv}), read back so that series run apart (a later {@code --first-repeat}) are summarised together.
 */
public record Series(String experiment, List<RunRecord> records) {
    private static final String RUNS = "-runs.csv";
    private static final String RAW = "-raw.csv";

    public Series {
        records = List.copyOf(records);
    }

    /** The series in {@code dir}: its one {@code NAME-runs.csv} and the {@code NAME-raw.csv} beside it. */
    public static Series read(Path dir) {
        Path runs = runsFile(dir);
        String file = runs.getFileName().toString();
        String experiment = file.substring(0, file.length() - RUNS.length());
        Path raw = dir.resolve(experiment + RAW);
        Map<RunKey, List<Measurement>> measurements = new HashMap<>();
        for (CSVRecord row : rows(raw)) {
            measurements
                    .computeIfAbsent(RunKey.of(row, raw), key -> new ArrayList<>())
                    .add(new Measurement(
                            field(row, "metric", raw), field(row, "subject", raw), number(row, "value", raw)));
        }
        Map<RunKey, RunRecord> records = new LinkedHashMap<>();
        for (CSVRecord row : rows(runs)) {
            RunKey key = RunKey.of(row, runs);
            Fidelity fidelity = new Fidelity(
                    number(row, "mean_idle", runs),
                    number(row, "min_idle", runs),
                    number(row, "worst_link_share", runs),
                    Boolean.parseBoolean(field(row, "valid", runs)),
                    RunText.problems(field(row, "problems", runs)));
            List<Check> checks;
            try {
                checks = RunText.checks(field(row, "checks", runs));
            } catch (IllegalArgumentException e) {
                throw invalid(runs, "line " + line(row) + ": " + e.getMessage());
            }
            RunResult result = new RunResult(measurements.getOrDefault(key, List.of()), checks, fidelity);
            if (records.put(key, new RunRecord(key.busy(), key.repeat(), result)) != null) {
                throw invalid(runs, "busy " + key.busy() + ", repeat " + key.repeat() + " is in it twice");
            }
        }
        measurements.keySet().stream()
                .filter(key -> !records.containsKey(key))
                .findFirst()
                .ifPresent(key -> {
                    throw invalid(raw, "busy " + key.busy() + ", repeat " + key.repeat() + " is not in " + runs);
                });
        return new Series(experiment, new ArrayList<>(records.values()));
    }

    /** One series of {@code series}' runs, by repeat then busy fraction; they must be runs of one experiment, each once. */
    public static Series merge(List<Series> series) {
        if (series.isEmpty()) {
            throw new TestbedException("no series to merge");
        }
        String experiment = series.get(0).experiment();
        Map<RunKey, RunRecord> merged = new HashMap<>();
        for (Series one : series) {
            if (!one.experiment().equals(experiment)) {
                throw new TestbedException(
                        "Invalid value " + one.experiment() + " for experiment: the series hold " + experiment);
            }
            for (RunRecord record : one.records()) {
                if (merged.put(new RunKey(record.busyFraction(), record.repeat()), record) != null) {
                    throw new TestbedException("Invalid value " + record.repeat() + " for repeat: busy "
                            + record.busyFraction() + ", repeat " + record.repeat()
                            + " is in two series (a later series needs another --first-repeat)");
                }
            }
        }
        return new Series(
                experiment,
                merged.values().stream()
                        .sorted(Comparator.comparingInt(RunRecord::repeat).thenComparingDouble(RunRecord::busyFraction))
                        .toList());
    }

    /** Which run a row belongs to. */
    private record RunKey(double busy, int repeat) {
        static RunKey of(CSVRecord row, Path file) {
            String repeat = field(row, "repeat", file);
            try {
                return new RunKey(number(row, "busy", file), Integer.parseInt(repeat));
            } catch (NumberFormatException e) {
                throw invalid(file, "line " + line(row) + ": repeat " + repeat + " is not a whole number");
            }
        }
    }

    private static Path runsFile(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw invalid(dir, "not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> runs = files.filter(f -> f.getFileName().toString().endsWith(RUNS))
                    .sorted()
                    .toList();
            if (runs.size() != 1) {
                throw invalid(dir, "expected one NAME" + RUNS + " in it, found " + runs.size());
            }
            return runs.get(0);
        } catch (IOException e) {
            throw invalid(dir, e.getMessage());
        }
    }

    private static List<CSVRecord> rows(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            return Reports.CSV
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .build()
                    .parse(reader)
                    .getRecords();
        } catch (IOException | IllegalArgumentException | IllegalStateException e) {
            throw invalid(file, e.getMessage());
        }
    }

    private static double number(CSVRecord row, String column, Path file) {
        String value = field(row, column, file);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw invalid(file, "line " + line(row) + ": " + column + " " + value + " is not a number");
        }
    }

    private static String field(CSVRecord row, String column, Path file) {
        if (!row.isMapped(column)) {
            throw invalid(file, "no column " + column);
        }
        if (!row.isSet(column)) {
            throw invalid(file, "line " + line(row) + ": no " + column);
        }
        return row.get(column);
    }

    /** The row's line in its file: the header is line 1, and no field of these files spans lines. */
    private static long line(CSVRecord row) {
        return row.getRecordNumber() + 1;
    }

    private static TestbedException invalid(Path file, String why) {
        return new TestbedException("Invalid value " + file + " for series: " + why);
    }
}
