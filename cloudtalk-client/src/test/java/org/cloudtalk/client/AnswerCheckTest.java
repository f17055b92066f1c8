package org.cloudtalk.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.junit.jupiter.api.Test;

class AnswerCheckTest {
    private static final Query QUERY = new QueryParser()
            .parse("A = B = (10.0.0.1 10.0.0.2 2001:db8::1)\nshared S = (10.0.0.1 disk)\n"
                    + "f1 A -> B size 1M\nf2 S -> A size 1M");

    @Test
    void anAnswerThatFitsPassesWhateverTheAddressesSpelling() {
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "10.0.0.1", "B", "2001:DB8:0::1", "S", "10.0.0.1")))
                .isEmpty();
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "10.0.0.2", "B", "10.0.0.1", "S", "disk")))
                .isEmpty();
    }

    @Test
    void anAnswerThatDoesNotFitSaysWhy() {
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "10.0.0.1", "B", "10.0.0.2")))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("it binds"));
        assertThat(AnswerCheck.problem(
                        QUERY, Map.of("A", "10.0.0.1", "B", "10.0.0.2", "S", "10.0.0.1", "Q", "1.1.1.1")))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("it binds"));
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "8.8.8.8", "B", "10.0.0.2", "S", "10.0.0.1")))
                .contains("A = 8.8.8.8 is not one of its candidates");
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "<script>", "B", "10.0.0.2", "S", "10.0.0.1")))
                .contains("A = <script> is not one of its candidates");
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "10.0.0.1", "B", "10.0.0.2", "S", "10.0.0.2")))
                .contains("S = 10.0.0.2 is not one of its candidates");
        assertThat(AnswerCheck.problem(QUERY, Map.of("A", "10.0.0.2", "B", "10.0.0.2", "S", "disk")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("is bound to another variable too"));
    }
}
