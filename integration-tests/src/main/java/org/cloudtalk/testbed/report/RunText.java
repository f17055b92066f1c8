package org.cloudtalk.testbed.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.cloudtalk.testbed.experiment.Check;

/**
 * How a run's checks and its fidelity verdict's problems are written, each list in one field of {@code NAME-runs.csv}
 * ({@link Reports}), and read back ({@link Series}): checks as "ok NAME: DETAIL" or "FAILED NAME: DETAIL", problems
 * as they are, each list joined with "; ". The console's verdict line marks checks the same way.
 */
final class RunText {
    private static final String PASSED = "ok ";
    private static final String FAILED = "FAILED ";
    private static final String SEPARATOR = "; ";
    private static final String DETAIL = ": ";
    /**
     * Between two checks: each starts with its verdict, so a detail may hold the separator unless a verdict follows
     * it (no check's detail does).
     */
    private static final Pattern NEXT_CHECK = Pattern.compile(
            Pattern.quote(SEPARATOR) + "(?=" + Pattern.quote(PASSED) + "|" + Pattern.quote(FAILED) + ")");
    /** Between two problems: a problem must not hold the separator (none does). */
    private static final Pattern NEXT_PROBLEM = Pattern.compile(Pattern.quote(SEPARATOR));

    private RunText() {}

    /** "ok " or "FAILED ": how a check's outcome is marked before its name. */
    static String verdict(Check check) {
        return check.passed() ? PASSED : FAILED;
    }

    static String checks(List<Check> checks) {
        return checks.stream()
                .map(check -> verdict(check) + check.name() + DETAIL + check.detail())
                .collect(Collectors.joining(SEPARATOR));
    }

    /** The checks {@link #checks(List)} wrote; {@link IllegalArgumentException} names a check without its verdict. */
    static List<Check> checks(String written) {
        List<Check> checks = new ArrayList<>();
        for (String check : split(written, NEXT_CHECK)) {
            boolean passed = check.startsWith(PASSED);
            if (!passed && !check.startsWith(FAILED)) {
                throw new IllegalArgumentException("a check without its verdict (ok or FAILED): " + check);
            }
            String rest = check.substring((passed ? PASSED : FAILED).length());
            int detail = rest.indexOf(DETAIL);
            checks.add(
                    detail < 0
                            ? new Check(rest, passed, "")
                            : new Check(rest.substring(0, detail), passed, rest.substring(detail + DETAIL.length())));
        }
        return checks;
    }

    static String problems(List<String> problems) {
        return String.join(SEPARATOR, problems);
    }

    /** The problems {@link #problems(List)} wrote. */
    static List<String> problems(String written) {
        return split(written, NEXT_PROBLEM);
    }

    private static List<String> split(String joined, Pattern separator) {
        return joined.isEmpty() ? List.of() : List.of(separator.split(joined));
    }
}
