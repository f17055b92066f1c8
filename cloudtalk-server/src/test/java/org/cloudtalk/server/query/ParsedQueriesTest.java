package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.junit.jupiter.api.Test;

class ParsedQueriesTest {
    private static final QueryParser PARSER = new QueryParser();

    private static String write(int host) {
        return "r1 = r2 = (10.0.0." + host + " 10.0.1.1 10.0.1.2)\n"
                + "f1 10.0.9.9 -> r1 size 128MB\n"
                + "f2 r1 -> r2 size 128MB transfer t(f1)\n";
    }

    @Test
    void aTextAskedAgainGetsTheQueryParsedTheFirstTime() {
        ParsedQueries parsed = new ParsedQueries(PARSER);

        Query first = parsed.parse(write(1));
        Query again = parsed.parse(new String(write(1).toCharArray()));

        assertThat(again).isSameAs(first).isEqualTo(PARSER.parse(write(1)));
        assertThat(parsed.parse(write(2))).isNotEqualTo(first).isEqualTo(PARSER.parse(write(2)));
        assertThat(parsed.size()).isEqualTo(2);
    }

    @Test
    void anInvalidTextFailsEveryTimeWithItsPositionAndIsNotKept() {
        ParsedQueries parsed = new ParsedQueries(PARSER);
        String invalid = "r1 = (10.0.0.1)\nf1 10.0.0.2 -> r9 size 1MB\n";

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> parsed.parse(invalid))
                    .isInstanceOf(QueryException.class)
                    .hasMessageContaining("2:");
        }
        assertThat(parsed.size()).isZero();
    }

    @Test
    void keepsNoLongTextAndAtMostTheCharacterBoundInAll() {
        ParsedQueries parsed = new ParsedQueries(PARSER);
        StringBuilder candidates = new StringBuilder();
        for (int i = 0; candidates.length() <= ParsedQueries.MAX_TEXT_CHARS; i++) {
            candidates
                    .append(" 10.")
                    .append(i / 65536)
                    .append('.')
                    .append(i / 256 % 256)
                    .append('.')
                    .append(i % 256);
        }
        String longText = "r1 = (" + candidates + ")\nf1 10.200.0.1 -> r1 size 1MB\n";
        assertThat(parsed.parse(longText)).isEqualTo(PARSER.parse(longText));
        assertThat(parsed.size()).isZero();

        int texts = (int) (ParsedQueries.MAX_KEPT_CHARS / write(0).length()) + 100;
        for (int i = 0; i < texts; i++) {
            parsed.parse(write(0) + "f3 r2 -> disk size " + i + "MB\n");
        }
        long keptAtMost = ParsedQueries.MAX_KEPT_CHARS / write(0).length();
        assertThat(parsed.size()).isPositive().isLessThanOrEqualTo((int) keptAtMost);
    }

    @Test
    void concurrentRequestsGetTheirOwnTextsQuery() throws Exception {
        ParsedQueries parsed = new ParsedQueries(PARSER);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 64; task++) {
                int host = task % 5 + 1;
                Callable<Boolean> check = () -> {
                    for (int i = 0; i < 200; i++) {
                        if (!parsed.parse(write(host)).equals(PARSER.parse(write(host)))) {
                            return false;
                        }
                    }
                    return true;
                };
                results.add(pool.submit(check));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(parsed.size()).isEqualTo(5);
    }
}
