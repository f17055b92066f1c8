package org.cloudtalk.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * End to end on loopback: four real status daemons, the server over HTTP, ctquery through the client. The daemons
 * read the real loopback counters, which carry whatever else this machine sends over loopback (the server's own
 * warm-up, other tests), so scores and estimates are checked against the capped capacities with a small tolerance,
 * and the choices exactly.
 */
class QuickstartTest {
    /** Loopback traffic a quiet machine may show beside the examples' own, as a share of the smallest cap. */
    private static final double NOISE = 0.05;

    @Test
    void everyExampleIsAnsweredAsExplained() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit = Quickstart.run(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String output = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        // The 1000 Mbit/s daemon serves the read; its score is its transmit capacity (bytes/s) less what lo carries.
        assertThat(output).contains("src = 127.0.0.1\n# evaluator heuristic, status 4 of 4 answered");
        Matcher scores = Pattern.compile(
                        "#   src: 127\\.0\\.0\\.1=(\\S+) \\(chosen\\) 127\\.0\\.0\\.2=(\\S+) 127\\.0\\.0\\.3=(\\S+)\n")
                .matcher(output);
        assertThat(scores.find()).as(output).isTrue();
        assertScore(scores.group(1), 1000);
        assertScore(scores.group(2), 400);
        assertScore(scores.group(3), 100);
        // The pipeline uses the two fastest hosts; 64 MiB twice through the 400 Mbit/s host bounds it: 1.342 s.
        assertThat(output).contains("r1 = 127.0.0.1\nr2 = 127.0.0.2\n# evaluator flow, estimated completion ");
        assertEstimate(output, "flow");
        assertEstimate(output, "exhaustive");
        assertThat(output).contains("line 2:11: 'dst' is not a declared variable");
    }

    private static void assertScore(String score, int capMbit) {
        double capacity = capMbit * 1e6 / 8;
        assertThat(Double.parseDouble(score)).isBetween(capacity * (1 - NOISE), capacity);
    }

    private static void assertEstimate(String output, String evaluator) {
        Matcher estimate = Pattern.compile("# evaluator " + evaluator + ", estimated completion (\\S+) s")
                .matcher(output);
        assertThat(estimate.find()).as(output).isTrue();
        double ideal = 64 * 8 * 1024 * 1024 / 400e6;
        // Printed to the millisecond; loopback noise can only lengthen it.
        assertThat(Double.parseDouble(estimate.group(1))).isBetween(ideal - 0.0005, ideal * (1 + NOISE));
    }
}
