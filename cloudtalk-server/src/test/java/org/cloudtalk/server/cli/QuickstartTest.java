package org.cloudtalk.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** End to end on loopback: four real status daemons, the server over HTTP, ctquery through the client. */
class QuickstartTest {
    @Test
    void everyExampleIsAnsweredAsExplained() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int exit = Quickstart.run(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String output = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        // The 1000 Mbit/s daemon serves the read; the pipeline uses the two fastest hosts, 400 Mbit/s bounding it.
        assertThat(output).contains("src = 127.0.0.1\n# evaluator heuristic, status 4 of 4 answered");
        assertThat(output).contains("#   src: 127.0.0.1=1.25e+08 (chosen) 127.0.0.2=5.00e+07 127.0.0.3=1.25e+07");
        assertThat(output).contains("r1 = 127.0.0.1\nr2 = 127.0.0.2\n# evaluator flow, estimated completion 1.342 s");
        assertThat(output).contains("# evaluator exhaustive, estimated completion 1.342 s");
        assertThat(output).contains("line 2:11: 'dst' is not a declared variable");
    }
}
