package org.cloudtalk.testbed.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.cloudtalk.testbed.report.Reports;
import org.cloudtalk.testbed.report.Series;
import org.cloudtalk.testbed.report.Summary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code testbed report --out DIR SERIES...}: one experiment's results from series run apart (an earlier
 * {@code --repeat K} and a later {@code --first-repeat K --repeat K'}), written as {@code run} writes them. Needs
 * neither root nor a testbed.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = "Writes one experiment's raw CSV, runs CSV, summary and chart from the results of several"
                + " 'run --out' directories (series with different --first-repeat) to --out.")
final class ReportCommand implements Callable<Integer> {
    @ParentCommand
    private TestbedMain main;

    @Parameters(arity = "1..*", paramLabel = "SERIES", description = "a directory 'testbed run --out' wrote")
    private List<Path> series;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "where the merged results go")
    private Path outDir;

    @Override
    public Integer call() {
        Series merged = Series.merge(series.stream().map(Series::read).toList());
        Summary summary = Summary.of(merged.records());
        Reports.write(Experiments.named(merged.experiment()), merged.records(), summary, outDir);
        main.out.print(summary.toMarkdown());
        main.out.println("results in " + outDir.toAbsolutePath());
        return 0;
    }
}
