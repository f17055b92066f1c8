package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.print.QueryPrinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Queries at the size limit parse and validate in linear time, and long reference chains do not recurse. */
class LargeQueryTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void longChainOfFlowsReferringByNameAndPosition() {
        StringBuilder text = new StringBuilder("A = (10.0.0.1 10.0.0.2)\nf1 A -> 10.0.0.3 size 1M\n");
        int flows = 1;
        while (text.length() < 1_000_000) {
            flows++;
            text.append('f').append(flows).append(" A -> 10.0.0.3 size sz(f").append(flows - 1);
            text.append(") start e(").append(flows - 1).append(") rate r(f1)\n");
        }
        Query query = new QueryParser().parse(text.toString());
        assertThat(query.flows()).hasSize(flows);
        assertThat(QueryPrinter.print(query)).hasLineCount(flows + 1);
    }

    /**
     * A run of hex digits without a colon at the size limit: the lexer tried it as an IPv6 address from every token in
     * it, minutes of lexing (quadratic: 128K characters took 14 s); a linear lexer takes well under a second.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLongRunOfHexDigitsLexesInLinearTime() {
        String run = "1a".repeat(500_000);
        QueryException exception = catchThrowableOfType(
                QueryException.class, () -> new QueryParser().parse("A = (10.0.0.1)\nA -> 10.0.0.2 size " + run));
        assertThat(exception.errors()).first().satisfies(error -> assertThat(error.toString())
                .startsWith("line 2:22: "));
    }

    /**
     * Sizes that each refer to the one before many times over, and a pair that refer to each other as often: each
     * size is worked out once (following every reference anew was exponential: 16 references over 10 flows, 16^8
     * steps), and the pair's cycle is reported.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void sizesReferringToOthersManyTimesAreWorkedOutOnce() {
        StringBuilder text = new StringBuilder("f1 10.0.0.1 -> 10.0.0.2 size 1M\n");
        for (int i = 2; i <= 12; i++) {
            String previous = "sz(f" + (i - 1) + ")";
            text.append('f').append(i).append(" 10.0.0.1 -> 10.0.0.2 size ");
            text.append(String.join(" + ", java.util.Collections.nCopies(16, previous)))
                    .append('\n');
        }
        assertThat(new QueryParser().parse(text.toString()).flows()).hasSize(12);

        String pair = "f1 10.0.0.1 -> 10.0.0.2 size " + String.join(" + ", java.util.Collections.nCopies(100, "sz(f2)"))
                + "\nf2 10.0.0.1 -> 10.0.0.2 size " + String.join(" + ", java.util.Collections.nCopies(100, "sz(f1)"));
        QueryException cycle = catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(pair));
        assertThat(cycle.errors()).extracting(QueryError::code).contains(ErrorCode.CYCLIC_DEPENDENCY);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void longCycleIsFoundWithoutRecursion() {
        StringBuilder text = new StringBuilder();
        int flows = 20_000;
        for (int i = 1; i <= flows; i++) {
            int next = i % flows + 1;
            text.append('f')
                    .append(i)
                    .append(" 10.0.0.1 -> 10.0.0.2 size sz(f")
                    .append(next)
                    .append(")\n");
        }
        QueryException exception =
                catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(text.toString()));
        assertThat(exception.errors()).singleElement().satisfies(error -> {
            assertThat(error.code()).isEqualTo(ErrorCode.CYCLIC_DEPENDENCY);
            assertThat(error.message())
                    .isEqualTo("cyclic dependency that can never be resolved: sz(f1) -> sz(f2) -> sz(f3) -> sz(f4) "
                            + "-> sz(f5) -> sz(f6) -> sz(f7) -> sz(f8) -> sz(f9) -> sz(f10) -> sz(f11) "
                            + "-> ... (19988 more) -> sz(f20000) -> sz(f1) "
                            + "(only rates and transfers may depend on each other in a cycle)");
        });
    }
}
