package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.print.QueryPrinter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** parse → print → parse gives the same AST, and printing is a fixed point, for every valid query in the tests. */
class RoundTripTest {
    static Stream<String> validQueries() {
        Stream<String> paper = Stream.of(
                        "intro",
                        "disk-bottleneck",
                        "daisy-chain",
                        "binding-order",
                        "hdfs-read",
                        "hdfs-write",
                        "reducers",
                        "map-placement",
                        "solr-aggregation")
                .map(name -> Queries.example("paper/" + name + ".ctq"));
        Stream<String> forms = Stream.of(
                // separators, comments, blank lines, candidate lists over several lines
                "A = (10.0.0.1 10.0.0.2); f1 A -> 10.0.0.3 size 1\n\n# comment\n",
                "A = (\n  10.0.0.1   # first\n  10.0.0.2\n)\nA -> 10.0.0.3 size 1G\r\nA -> disk size 2",
                // shared declarations and disk candidates
                "shared X = Y = (10.0.0.1 10.0.0.2 disk)\nf1 X -> Y size 1\nf2 Y -> X size sz(f1)",
                // IPv6, unknown source, unnamed flows referenced by position
                "A = (fe80::1 2001:db8::2)\n0.0.0.0 -> A size 5GB\nA -> disk rate r(1) transfer t(1)",
                ":: -> 2001:DB8:0:0:0:0:0:1 size 1",
                // every attribute and unit family
                "f1 10.0.0.1 -> 10.0.0.2 start 1.5s end 3000ms size 1.25TB rate 100Mbps transfer 10KiB",
                "f1 10.0.0.1 -> 10.0.0.2 size 1 rate 1Gbps\nf2 10.0.0.2 -> 10.0.0.3 start e(f1) + 20us rate 5MBps",
                // precedence and associativity survive printing
                "f1 10.0.0.1 -> 10.0.0.2 size 10 - (4 - 3) - 2 rate 8 / (4 / 2) * 3",
                "f1 10.0.0.1 -> 10.0.0.2 size (1 + 2) * 3 + 4 * (5 - 6 / 2)",
                "f1 10.0.0.1 -> 10.0.0.2 size 1M\n"
                        + "f2 10.0.0.2 -> 10.0.0.3 size sz(f1) * 2 + sz(1) / 2 start st(f1) + (e(f1) - st(f1)) / 2");
        return Stream.concat(paper, forms);
    }

    @ParameterizedTest
    @MethodSource("validQueries")
    void printThenParseGivesSameAst(String text) {
        QueryParser parser = new QueryParser();
        Query original = parser.parse(text);
        String printed = QueryPrinter.print(original);
        Query reparsed = parser.parse(printed);
        assertThat(Spans.erase(reparsed)).isEqualTo(Spans.erase(original));
        assertThat(QueryPrinter.print(reparsed)).isEqualTo(printed);
    }
}
