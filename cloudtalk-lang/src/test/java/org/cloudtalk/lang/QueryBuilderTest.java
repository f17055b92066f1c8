package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.cloudtalk.lang.build.QueryBuilder.bytes;
import static org.cloudtalk.lang.build.QueryBuilder.host;
import static org.cloudtalk.lang.build.QueryBuilder.variable;

import java.util.List;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.print.QueryPrinter;
import org.junit.jupiter.api.Test;

class QueryBuilderTest {
    private static final long MIB = 1 << 20;
    private static final List<String> SIX =
            List.of("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6");

    @Test
    void daisyChainWriteIsThePapersHdfsWriteQuery() {
        Query built =
                QueryBuilder.daisyChainWrite("10.0.0.100", 3, SIX, 256 * MIB).build();
        assertThat(built).isEqualTo(parsed("paper/hdfs-write.ctq"));
    }

    @Test
    void severalBlocksAreChainsOfDistinctVariablesWithTheirOwnFlows() {
        Query built =
                QueryBuilder.daisyChainWrites("10.0.0.100", 2, 2, SIX, MIB).build();
        assertThat(QueryPrinter.print(built))
                .isEqualTo("b1r1 = b1r2 = b2r1 = b2r2 = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5 10.0.0.6)\n"
                        + "f1 10.0.0.100 -> b1r1 size 1M rate r(f2)\n"
                        + "f2 b1r1 -> disk size 1M rate r(f1)\n"
                        + "f3 b1r1 -> b1r2 size 1M rate r(f4) transfer t(f2)\n"
                        + "f4 b1r2 -> disk size 1M rate r(f3)\n"
                        + "f5 10.0.0.100 -> b2r1 size 1M rate r(f6)\n"
                        + "f6 b2r1 -> disk size 1M rate r(f5)\n"
                        + "f7 b2r1 -> b2r2 size 1M rate r(f8) transfer t(f6)\n"
                        + "f8 b2r2 -> disk size 1M rate r(f7)\n");
    }

    @Test
    void replicaReadIsThePapersHdfsReadQuery() {
        Query built = QueryBuilder.replicaRead(SIX.subList(0, 3), "10.0.0.100", 256 * MIB)
                .build();
        assertThat(built).isEqualTo(parsed("paper/hdfs-read.ctq"));
    }

    @Test
    void reducersIsThePapersReducerQuery() {
        Query built = QueryBuilder.reducers(2, SIX.subList(0, 4), 1L << 30).build();
        assertThat(built).isEqualTo(parsed("paper/reducers.ctq"));
    }

    @Test
    void mapPlacementIsThePapersMapQuery() {
        Query built = QueryBuilder.mapPlacement(SIX.subList(0, 3), "10.0.0.9", 128 * MIB)
                .build();
        assertThat(built).isEqualTo(parsed("paper/map-placement.ctq"));
    }

    @Test
    void writerOutsideTheClusterIsTheUnknownSource() {
        Query built = QueryBuilder.daisyChainWrite("0.0.0.0", 1, SIX, MIB).build();
        assertThat(built.flows().get(0).source()).isInstanceOf(Endpoint.UnknownSource.class);
        assertThat(QueryPrinter.print(built))
                .isEqualTo("r1 = (10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4 10.0.0.5 10.0.0.6)\n"
                        + "f1 0.0.0.0 -> r1 size 1M rate r(f2)\n"
                        + "f2 r1 -> disk size 1M rate r(f1)\n");
    }

    @Test
    void bytesChoosesTheLargestExactMultiplier() {
        assertThat(QueryPrinter.print(bytes(0))).isEqualTo("0");
        assertThat(QueryPrinter.print(bytes(1000))).isEqualTo("1000");
        assertThat(QueryPrinter.print(bytes(3072))).isEqualTo("3K");
        assertThat(QueryPrinter.print(bytes(5L << 40))).isEqualTo("5T");
        assertThat(QueryPrinter.print(bytes((1L << 30) + 1))).isEqualTo("1073741825");
    }

    /**
     * At the nesting limit, with a reference at the bottom (whose own parenthesis the parser counts too): whatever the
     * builder accepts, the parser takes; the rest the builder refuses.
     */
    @Test
    void theBuilderAndTheParserAgreeAtTheNestingLimit() {
        int accepted = 0;
        int refused = 0;
        for (int depth = 28; depth <= 36; depth++) {
            org.cloudtalk.lang.ast.Expression value = QueryBuilder.sizeOf("f1");
            for (int i = 0; i < depth; i++) {
                value = QueryBuilder.binary(
                        org.cloudtalk.lang.ast.Operator.SUBTRACT, QueryBuilder.bytes(1L << 40), value);
            }
            QueryBuilder builder = new QueryBuilder();
            builder.flow("f1", host("10.0.0.2"), host("10.0.0.1")).size(bytes(1));
            builder.flow("f2", host("10.0.0.2"), host("10.0.0.3")).size(value);
            QueryException atBuild = catchThrowableOfType(QueryException.class, builder::toText);
            if (atBuild != null) {
                assertThat(atBuild.errors().get(0).code()).isEqualTo(ErrorCode.NESTING_TOO_DEEP);
                refused++;
            } else {
                String text = builder.toText();
                assertThat(catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(text)))
                        .as("nested %d deep", depth)
                        .isNull();
                accepted++;
            }
        }
        assertThat(accepted).isPositive();
        assertThat(refused).isPositive();
    }

    /** A built value the parser would refuse is refused at build, and one nested deeper than a stack never recurses. */
    @Test
    void builtValuesKeepToTheParsersLimits() {
        org.cloudtalk.lang.ast.Expression long300 = QueryBuilder.number(1);
        for (int i = 0; i < 300; i++) {
            long300 = QueryBuilder.binary(org.cloudtalk.lang.ast.Operator.ADD, long300, QueryBuilder.number(1));
        }
        org.cloudtalk.lang.ast.Expression nested40 = QueryBuilder.number(1);
        for (int i = 0; i < 40; i++) {
            nested40 =
                    QueryBuilder.binary(org.cloudtalk.lang.ast.Operator.SUBTRACT, QueryBuilder.number(100), nested40);
        }
        org.cloudtalk.lang.ast.Expression deep = QueryBuilder.number(1);
        for (int i = 0; i < 100_000; i++) {
            deep = QueryBuilder.binary(org.cloudtalk.lang.ast.Operator.SUBTRACT, QueryBuilder.number(1), deep);
        }
        for (var value : List.of(long300, nested40, deep)) {
            QueryBuilder builder = new QueryBuilder();
            builder.flow("f1", host("10.0.0.2"), host("10.0.0.1")).size(value);
            QueryException exception = catchThrowableOfType(QueryException.class, builder::build);
            assertThat(exception).isNotNull();
            assertThat(exception.errors().get(0).code())
                    .isIn(ErrorCode.EXPRESSION_TOO_LONG, ErrorCode.NESTING_TOO_DEEP);
        }
        QueryBuilder fine = new QueryBuilder();
        org.cloudtalk.lang.ast.Expression nested20 = QueryBuilder.number(1);
        for (int i = 0; i < 20; i++) {
            nested20 = QueryBuilder.binary(org.cloudtalk.lang.ast.Operator.ADD, QueryBuilder.number(100), nested20);
        }
        fine.flow("f1", host("10.0.0.2"), host("10.0.0.1")).size(nested20);
        assertThat(QueryPrinter.print(new QueryParser().parse(fine.toText()))).isEqualTo(fine.toText());
    }

    @Test
    void builtQueriesAreValidatedLikeParsedOnes() {
        QueryBuilder builder = new QueryBuilder();
        builder.flow("f1", variable("A"), host("10.0.0.1")).size(QueryBuilder.sizeOf("f2"));
        QueryException exception = catchThrowableOfType(QueryException.class, builder::build);
        assertThat(exception.errors())
                .extracting(QueryError::code, QueryError::formatted)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                ErrorCode.UNDECLARED_VARIABLE,
                                "'A' is not a declared variable (an endpoint is a variable, an IP address or disk)"),
                        org.assertj.core.groups.Tuple.tuple(
                                ErrorCode.UNKNOWN_FLOW, "unknown flow in sz(f2): no flow is named 'f2'"));
    }

    @Test
    void rejectsBadNamesAddressesAndRepeatedAttributes() {
        assertThat(catchThrowableOfType(QueryException.class, () -> variable("size"))
                        .first()
                        .code())
                .isEqualTo(ErrorCode.INVALID_NAME);
        assertThat(catchThrowableOfType(QueryException.class, () -> variable("1x"))
                        .first()
                        .code())
                .isEqualTo(ErrorCode.INVALID_NAME);
        assertThat(catchThrowableOfType(QueryException.class, () -> host("node7.example"))
                        .first()
                        .formatted())
                .isEqualTo(
                        "invalid address 'node7.example': not an IPv4 or IPv6 address literal (host names are not resolved)");
        QueryBuilder.FlowBuilder flow =
                new QueryBuilder().flow(host("10.0.0.1"), host("10.0.0.2")).size(bytes(1));
        assertThat(catchThrowableOfType(QueryException.class, () -> flow.set(Attribute.SIZE, bytes(2)))
                        .first()
                        .formatted())
                .isEqualTo("size is given twice for flow #1");
    }

    @Test
    void toTextParsesBackToTheSameQuery() {
        QueryBuilder builder = QueryBuilder.daisyChainWrite("10.0.0.100", 3, SIX, 64 * MIB);
        assertThat(Spans.erase(new QueryParser().parse(builder.toText()))).isEqualTo(builder.build());
    }

    private static Query parsed(String example) {
        return Spans.erase(new QueryParser().parse(Queries.example(example)));
    }
}
