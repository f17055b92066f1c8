package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.cloudtalk.lang.build.QueryBuilder.bytes;
import static org.cloudtalk.lang.build.QueryBuilder.disk;
import static org.cloudtalk.lang.build.QueryBuilder.host;
import static org.cloudtalk.lang.build.QueryBuilder.rateOf;
import static org.cloudtalk.lang.build.QueryBuilder.sizeOf;
import static org.cloudtalk.lang.build.QueryBuilder.transferOf;
import static org.cloudtalk.lang.build.QueryBuilder.unknownSource;
import static org.cloudtalk.lang.build.QueryBuilder.variable;

import java.util.List;
import java.util.stream.Stream;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.Unit;
import org.cloudtalk.lang.build.QueryBuilder;
import org.cloudtalk.lang.parser.QueryParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every query printed in the paper, in concrete form (IP addresses for placeholder names), parses to its AST. */
class PaperQueriesTest {
    private static final long MIB = 1 << 20;

    static Stream<Arguments> paperQueries() {
        return Stream.of(
                Arguments.of("paper/intro.ctq", intro()),
                Arguments.of("paper/disk-bottleneck.ctq", diskBottleneck()),
                Arguments.of("paper/daisy-chain.ctq", daisyChain()),
                Arguments.of("paper/binding-order.ctq", bindingOrder()),
                Arguments.of("paper/hdfs-read.ctq", hdfsRead()),
                Arguments.of("paper/hdfs-write.ctq", hdfsWrite()),
                Arguments.of("paper/reducers.ctq", reducers()),
                Arguments.of("paper/map-placement.ctq", mapPlacement()),
                Arguments.of("paper/solr-aggregation.ctq", solrAggregation()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paperQueries")
    void parsesToExpectedAst(String file, Query expected) {
        Query parsed = new QueryParser().parse(Queries.example(file));
        assertThat(Spans.erase(parsed)).isEqualTo(expected);
    }

    private static Query intro() {
        QueryBuilder builder = new QueryBuilder().variable("A", List.of("10.0.0.2", "10.0.0.3"));
        builder.flow("f1", variable("A"), host("10.0.0.1")).size(mebi(256));
        return builder.build();
    }

    private static Query diskBottleneck() {
        QueryBuilder builder =
                new QueryBuilder().variable("A", List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"));
        builder.flow("f1", disk(), variable("A")).size(mebi(100)).rate(rateOf("f2"));
        builder.flow("f2", variable("A"), host("10.0.0.1")).size(sizeOf("f1")).rate(rateOf("f1"));
        return builder.build();
    }

    private static Query daisyChain() {
        QueryBuilder builder = new QueryBuilder()
                .variables(List.of("B", "C", "D"), List.of("10.0.1.1", "10.0.1.2", "10.0.1.3", "10.0.1.4", "10.0.1.5"));
        builder.flow("f1", host("10.0.0.1"), variable("B")).size(mebi(100));
        builder.flow("f2", variable("B"), variable("C")).size(sizeOf("f1")).transfer(transferOf("f1"));
        builder.flow("f3", variable("C"), variable("D")).size(sizeOf("f1")).transfer(transferOf("f2"));
        return builder.build();
    }

    private static Query bindingOrder() {
        QueryBuilder builder =
                new QueryBuilder().variables(List.of("X", "Y", "Z"), List.of("10.0.0.1", "10.0.0.2", "10.0.0.3"));
        builder.flow("f1", variable("X"), variable("Y")).size(mebi(100));
        builder.flow("f2", variable("Z"), host("10.0.0.1")).size(mebi(100));
        return builder.build();
    }

    private static Query hdfsRead() {
        QueryBuilder builder = new QueryBuilder().variable("src", List.of("10.0.0.1", "10.0.0.2", "10.0.0.3"));
        builder.flow("f1", disk(), variable("src")).size(mebi(256)).rate(rateOf("f2"));
        builder.flow("f2", variable("src"), host("10.0.0.100")).size(mebi(256)).rate(rateOf("f1"));
        return builder.build();
    }

    private static Query hdfsWrite() {
        QueryBuilder builder = new QueryBuilder()
                .variables(
                        List.of("r1", "r2", "r3"),
                        List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"));
        builder.flow("f1", host("10.0.0.100"), variable("r1")).size(mebi(256)).rate(rateOf("f2"));
        builder.flow("f2", variable("r1"), disk()).size(mebi(256)).rate(rateOf("f1"));
        builder.flow("f3", variable("r1"), variable("r2"))
                .size(mebi(256))
                .rate(rateOf("f4"))
                .transfer(transferOf("f2"));
        builder.flow("f4", variable("r2"), disk()).size(mebi(256)).rate(rateOf("f3"));
        builder.flow("f5", variable("r2"), variable("r3"))
                .size(mebi(256))
                .rate(rateOf("f6"))
                .transfer(transferOf("f4"));
        builder.flow("f6", variable("r3"), disk()).size(mebi(256)).rate(rateOf("f5"));
        return builder.build();
    }

    private static Query reducers() {
        QueryBuilder builder = new QueryBuilder()
                .variables(List.of("x1", "x2"), List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"));
        Expression gibibyte = new Expression.Number(1, Unit.GIGA, Span.NONE);
        builder.flow("f1", unknownSource(), variable("x1")).size(gibibyte).rate(rateOf("f2"));
        builder.flow("f2", variable("x1"), disk()).size(gibibyte).rate(rateOf("f1"));
        builder.flow("f3", unknownSource(), variable("x2")).size(gibibyte).rate(rateOf("f4"));
        builder.flow("f4", variable("x2"), disk()).size(gibibyte).rate(rateOf("f3"));
        return builder.build();
    }

    private static Query mapPlacement() {
        QueryBuilder builder = new QueryBuilder().variable("X", List.of("10.0.0.1", "10.0.0.2", "10.0.0.3"));
        builder.flow("f1", disk(), variable("X")).size(mebi(128)).rate(rateOf("f2"));
        builder.flow("f2", variable("X"), host("10.0.0.9")).size(mebi(128)).rate(rateOf("f1"));
        return builder.build();
    }

    private static Query solrAggregation() {
        QueryBuilder builder = new QueryBuilder()
                .variables(List.of("AGG1", "AGG2"), List.of("10.0.2.1", "10.0.2.2", "10.0.2.3", "10.0.2.51"));
        Expression tenKilobytes = new Expression.Number(10, Unit.KIBIBYTE, Span.NONE);
        builder.flow("f1a", host("10.0.2.1"), variable("AGG1")).size(tenKilobytes);
        builder.flow("f1b", variable("AGG1"), host("10.0.0.80")).transfer(transferOf("f1a"));
        builder.flow("f51a", host("10.0.2.51"), variable("AGG2")).size(tenKilobytes);
        builder.flow("f51b", variable("AGG2"), host("10.0.0.80")).transfer(transferOf("f51a"));
        return builder.build();
    }

    private static Expression mebi(long count) {
        Expression expression = bytes(count * MIB);
        // bytes() chooses the unit; the paper writes these sizes with M, which is what the parser produces too.
        assertThat(expression).isEqualTo(new Expression.Number(count, Unit.MEGA, Span.NONE));
        return expression;
    }
}
