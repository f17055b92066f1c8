package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.stream.Stream;
import org.cloudtalk.lang.parser.QueryParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Invalid input → the exact errors, with code, position and message. */
class ErrorMessagesTest {
    /** Ten flows, each sized by the one before; the last takes 2G from a 1G size. */
    private static final String CHAIN_BACK = "f1 10.0.0.1 -> 10.0.0.2 size 1G\n"
            + java.util.stream.IntStream.rangeClosed(2, 9)
                    .mapToObj(i -> "f" + i + " 10.0.0.1 -> 10.0.0.3 size sz(f" + (i - 1) + ")\n")
                    .collect(java.util.stream.Collectors.joining())
            + "f10 10.0.0.1 -> 10.0.0.4 size sz(f9) - 2G";
    /**
     * Chains in both directions around the flow that goes negative (f12 = sz(f13) - 2G, f13..f30 each the next, f31 =
     * sz(f1), f1..f10 each the next, f11 = 1G): its size is known however the chain winds.
     */
    private static final String CHAIN_WINDING = java.util.stream.IntStream.rangeClosed(1, 31)
            .mapToObj(i -> "f" + i + " 10.0.0.1 -> 10.0.0.3 size "
                    + switch (i) {
                        case 11 -> "1G";
                        case 12 -> "sz(f13) - 2G";
                        case 31 -> "sz(f1)";
                        default -> "sz(f" + (i + 1) + ")";
                    })
            .collect(java.util.stream.Collectors.joining("\n"));
    /** Twelve flows, each sized by the one after; the first takes 2G from a 1G size. */
    private static final String CHAIN_FORWARD = "f1 10.0.0.1 -> 10.0.0.4 size sz(f2) - 2G\n"
            + java.util.stream.IntStream.rangeClosed(2, 11)
                    .mapToObj(i -> "f" + i + " 10.0.0.1 -> 10.0.0.3 size sz(f" + (i + 1) + ")\n")
                    .collect(java.util.stream.Collectors.joining())
            + "f12 10.0.0.1 -> 10.0.0.3 size 1G";

    private static final String AB = "A = (10.0.0.1 10.0.0.2)\n";

    static Stream<Arguments> invalidQueries() {
        return Stream.of(
                // Syntax
                error(
                        "A = (10.0.0.1",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:14: unexpected end of input, expected one of ')', 'disk', IPv4 address, "
                                + "IPv6 address, end of line"),
                error("A B C", ErrorCode.SYNTAX_ERROR, "line 1:5: unexpected 'C', expected '->'"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size (1+",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:33: unexpected end of input, expected one of '(', number, reference such as sz(f1)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 $",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:32: unexpected character '$', expected one of "
                                + "'*', '+', '-', '/', ';', 'end', 'rate', 'start', 'transfer', end of input, end of line"),
                // A character a terminal shows as nothing or a space is written as its code.
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 \u200b",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:32: unexpected character '\\u200b', expected one of "
                                + "'*', '+', '-', '/', ';', 'end', 'rate', 'start', 'transfer', end of input, end of line"),
                // A byte order mark before the query is none of it: positions count from after it.
                error(
                        "\ufefff1 10.0.0.1 -> 10.0.0.2 size 1 $",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:32: unexpected character '$', expected one of "
                                + "'*', '+', '-', '/', ';', 'end', 'rate', 'start', 'transfer', end of input, end of line"),
                // A first group too long to lex with the address would read as a flow's name: refused as the address.
                error(
                        "deadbeefcafe::1 -> 10.0.0.2 size 1M",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:1: invalid IPv6 address 'deadbeefcafe::1': group 'deadbeefcafe' is not 1 to 4 hex digits"
                                + " (or, if it is a flow's name, put a space after it)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 f2 10.0.0.1 -> 10.0.0.2",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:32: unexpected 'f2', expected one of "
                                + "'*', '+', '-', '/', ';', 'end', 'rate', 'start', 'transfer', end of input, end of line"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 speed 1",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:25: unexpected 'speed', expected one of ';', 'end', 'rate', 'size', 'start', "
                                + "'transfer', end of input, end of line"),
                error(
                        "f1 10.0.0.1 ->\n10.0.0.2",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:15: unexpected end of line, expected one of 'disk', IPv4 address, IPv6 address, "
                                + "identifier"),
                error(
                        "= (10.0.0.1)",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:1: unexpected '=', expected one of ';', 'disk', 'shared', IPv4 address, IPv6 address, "
                                + "end of input, end of line, identifier"),
                error(
                        "A = (10.0.0.1 B)",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:15: unexpected 'B', expected one of ')', 'disk', IPv4 address, IPv6 address, "
                                + "end of line"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 +",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:33: unexpected end of input, expected one of '(', number, reference such as sz(f1)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size r(f1",
                        ErrorCode.SYNTAX_ERROR,
                        "line 1:34: unexpected end of input, expected ')'"),
                // Lexical forms
                error(
                        "A = (1.2.3)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv4 address '1.2.3': an IPv4 address has 4 parts, not 3"),
                error(
                        "A = (1.2.3.256)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv4 address '1.2.3.256': part '256' is not a number from 0 to 255"),
                error(
                        "A = (10.0.0.01)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv4 address '10.0.0.01': part '01' has a leading zero"),
                error(
                        "A = (1::2::3)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv6 address '1::2::3': '::' may appear only once"),
                error(
                        "A = (1:2:3:4:5:6:7)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv6 address '1:2:3:4:5:6:7': an IPv6 address has 8 groups, not 7"),
                error(
                        "A = (12345::1)",
                        ErrorCode.INVALID_ADDRESS,
                        "line 1:6: invalid IPv6 address '12345::1': group '12345' is not 1 to 4 hex digits"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 10Q",
                        ErrorCode.UNKNOWN_UNIT,
                        "line 1:30: unknown unit 'Q' in '10Q', expected one of K M G T, B KB MB GB TB, "
                                + "Bps KBps MBps GBps TBps, bps Kbps Mbps Gbps Tbps, s ms us"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size foo(f1)",
                        ErrorCode.UNKNOWN_FUNCTION,
                        "line 1:30: unknown function 'foo', expected st, e, sz, r or t"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 rate 2 size 2",
                        ErrorCode.DUPLICATE_ATTRIBUTE,
                        "line 1:39: size is given twice (first at line 1:25)"),
                // A position no query can have is an unknown flow, like one past the query's flows.
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size r(0)",
                        ErrorCode.UNKNOWN_FLOW,
                        "line 1:32: unknown flow in r(0): positions start at 1"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size t(1000000000)",
                        ErrorCode.UNKNOWN_FLOW,
                        "line 1:32: unknown flow in t(1000000000): no query has that many flows"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size r(1.5)",
                        ErrorCode.INVALID_NUMBER,
                        "line 1:32: '1.5' is not a flow: use a flow's name or its position (1, 2, ...)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1" + "0".repeat(400),
                        ErrorCode.INVALID_NUMBER,
                        "line 1:30: number '1" + "0".repeat(400) + "' is too large"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1e3",
                        ErrorCode.INVALID_NUMBER,
                        "line 1:30: number '1e3' has an exponent, which the language does not take: write the digits, or"
                                + " a multiple such as 1K, 1M, 1G (or KB, MB, GB)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1.5E-2GB",
                        ErrorCode.INVALID_NUMBER,
                        "line 1:30: number '1.5E-2GB' has an exponent, which the language does not take: write the"
                                + " digits, or a multiple such as 1K, 1M, 1G (or KB, MB, GB)"),
                // Semantics
                error(
                        "f1 A -> 10.0.0.1 size 1",
                        ErrorCode.UNDECLARED_VARIABLE,
                        "line 1:4: 'A' is not a declared variable (an endpoint is a variable, an IP address or disk)"),
                // A lone CR ends a line, as LF and CR LF do.
                error(
                        "f1 10.0.0.1 -> 10.0.0.2\rf2 A -> 10.0.0.1",
                        ErrorCode.UNDECLARED_VARIABLE,
                        "line 2:4: 'A' is not a declared variable (an endpoint is a variable, an IP address or disk)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2\r\n\rf2 A -> 10.0.0.1",
                        ErrorCode.UNDECLARED_VARIABLE,
                        "line 3:4: 'A' is not a declared variable (an endpoint is a variable, an IP address or disk)"),
                error(
                        "A = (10.0.0.1)\nA = (10.0.0.2)",
                        ErrorCode.DUPLICATE_VARIABLE,
                        "line 2:1: variable 'A' is already declared at line 1:1"),
                error(
                        "A = B = A = (10.0.0.1)",
                        ErrorCode.DUPLICATE_VARIABLE,
                        "line 1:9: variable 'A' is already declared at line 1:1"),
                error(
                        AB + "f1 A -> 10.0.0.3\nf1 A -> 10.0.0.4",
                        ErrorCode.DUPLICATE_FLOW,
                        "line 3:1: flow 'f1' is already defined at line 2:1"),
                error(
                        "",
                        ErrorCode.EMPTY_QUERY,
                        "line 1:1: the query is empty: declare variables with their candidates and describe the flows"),
                error(
                        "\n# only a comment\n\n",
                        ErrorCode.EMPTY_QUERY,
                        "line 1:1: the query is empty: declare variables with their candidates and describe the flows"),
                error("A = ()", ErrorCode.EMPTY_CANDIDATES, "line 1:1: variable 'A' has no candidate values"),
                error(
                        "A = (10.0.0.1 10.0.0.1)",
                        ErrorCode.DUPLICATE_CANDIDATE,
                        "line 1:15: candidate 10.0.0.1 is listed twice for 'A'"),
                error(
                        "A = (10.0.0.1 0.0.0.0)",
                        ErrorCode.INVALID_CANDIDATE,
                        "line 1:15: 0.0.0.0 (the unknown source) cannot be a candidate value"),
                error(
                        "f1 disk -> disk size 1",
                        ErrorCode.DISK_TO_DISK,
                        "line 1:1: flow f1 goes from disk to disk; one end must be a host or a variable"),
                error(
                        "f1 0.0.0.0 -> disk size 1",
                        ErrorCode.DISK_WITHOUT_HOST,
                        "line 1:1: flow f1 writes to disk from the unknown source; disk needs a host or variable at "
                                + "the other end"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.1",
                        ErrorCode.SAME_ENDPOINT,
                        "line 1:1: flow f1 goes from 10.0.0.1 to itself"),
                error(AB + "A -> A", ErrorCode.SAME_ENDPOINT, "line 2:1: flow #1 goes from 'A' to itself"),
                error(
                        "f1 10.0.0.1 -> 0.0.0.0",
                        ErrorCode.UNKNOWN_SOURCE_AS_DESTINATION,
                        "line 1:16: 0.0.0.0 (the unknown source) can only be a flow's source"),
                error(
                        AB + "f1 A -> 10.0.0.3 size sz(f9)",
                        ErrorCode.UNKNOWN_FLOW,
                        "line 2:26: unknown flow in sz(f9): no flow is named 'f9'"),
                error(
                        AB + "f1 A -> 10.0.0.3 size 1 rate r(4)",
                        ErrorCode.UNKNOWN_FLOW,
                        "line 2:32: unknown flow in r(4): the query has 1 flow"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size sz(f1)",
                        ErrorCode.SELF_REFERENCE,
                        "line 1:30: size of flow f1 refers to itself"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 rate r(1)",
                        ErrorCode.SELF_REFERENCE,
                        "line 1:30: rate of flow f1 refers to itself"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size sz(f2)\nf2 10.0.0.2 -> 10.0.0.3 size sz(f1)",
                        ErrorCode.CYCLIC_DEPENDENCY,
                        "line 1:30: cyclic dependency that can never be resolved: sz(f1) -> sz(f2) -> sz(f1) "
                                + "(only rates and transfers may depend on each other in a cycle)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 start e(f2)\nf2 10.0.0.2 -> 10.0.0.3 size 1 start e(f1)",
                        ErrorCode.CYCLIC_DEPENDENCY,
                        "line 1:38: cyclic dependency that can never be resolved: st(f1) -> e(f2) -> st(f2) -> e(f1) "
                                + "-> st(f1) (only rates and transfers may depend on each other in a cycle)"),
                // A deadlock through rates: f1 cannot go faster than f2, which starts only when f1 has ended.
                error(
                        "f1 10.0.0.1 -> 10.0.0.5 size 1 start e(f2)\nf2 10.0.0.2 -> 10.0.0.6 size 1 rate r(f1)",
                        ErrorCode.CYCLIC_DEPENDENCY,
                        "line 1:38: cyclic dependency that can never be resolved: st(f1) -> e(f2) -> r(f2) -> r(f1) "
                                + "-> st(f1) (only rates and transfers may depend on each other in a cycle)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2\nf2 10.0.0.2 -> 10.0.0.3 size sz(f1)",
                        ErrorCode.UNKNOWN_ATTRIBUTE_VALUE,
                        "line 2:30: sz(f1) is unknown: flow f1 has no size"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 rate 1M\nf2 10.0.0.2 -> 10.0.0.3 start e(f1)",
                        ErrorCode.UNKNOWN_ATTRIBUTE_VALUE,
                        "line 2:31: e(f1) is unknown: flow f1 has neither size nor end, so it never ends"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 100Mbps",
                        ErrorCode.UNIT_MISMATCH,
                        "line 1:30: size takes bytes, not a rate (bytes/s)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 start 5MB",
                        ErrorCode.UNIT_MISMATCH,
                        "line 1:38: start takes a time (s), not bytes"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 rate 1Mbps + 1s",
                        ErrorCode.UNIT_MISMATCH,
                        "line 1:37: cannot combine a rate (bytes/s) and a time (s) with '+'"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1GB*1GB",
                        ErrorCode.UNIT_MISMATCH,
                        "line 1:30: cannot multiply bytes by bytes: the result has no unit a flow takes (parenthesize a"
                                + " ratio of like units, e.g. sz(f1) * (t(f2) / t(f3)))"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 start 1/1s",
                        ErrorCode.UNIT_MISMATCH,
                        "line 1:38: cannot divide a plain number by a time (s): the result has no unit a flow takes"
                                + " (parenthesize a ratio of like units, e.g. sz(f1) * (t(f2) / t(f3)))"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 start 7 end 5",
                        ErrorCode.INVALID_VALUE,
                        "line 1:37: flow f1 ends (5.0 s) before it starts (7.0 s)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 rate 1/0",
                        ErrorCode.INVALID_VALUE,
                        "line 1:30: rate of flow f1 is not a finite number (division by zero?)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 - 2",
                        ErrorCode.INVALID_VALUE,
                        "line 1:30: size of flow f1 is negative (-1.0)"),
                // Sizes and starts are known before the flows run: through references they are checked the same way.
                error(
                        "f1 10.0.0.1 -> 10.0.0.3 size 1G\nf2 10.0.0.1 -> 10.0.0.5 size sz(f1) - 2G",
                        ErrorCode.INVALID_VALUE,
                        "line 2:30: size of flow f2 is negative (-1.073741824E9)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.3 size 1G\nf2 10.0.0.1 -> 10.0.0.5 size 1 start st(f1) - 5s",
                        ErrorCode.INVALID_VALUE,
                        "line 2:38: start of flow f2 is negative (-5.0)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.3 size 1G\nf2 10.0.0.1 -> 10.0.0.5 size sz(f1) / (sz(1) - 1G)",
                        ErrorCode.INVALID_VALUE,
                        "line 2:30: size of flow f2 is not a finite number (division by zero?)"),
                // A constant part that is not finite, in a value that refers to the flows or inside a finite whole.
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1G\nf2 10.0.0.1 -> 10.0.0.3 size 1G transfer t(f1) * (0 / 0)",
                        ErrorCode.INVALID_VALUE,
                        "line 2:51: transfer of flow f2 has a constant part that is not a finite number (division by"
                                + " zero, or too large?)"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1 / (1 / 0)",
                        ErrorCode.INVALID_VALUE,
                        "line 1:35: size of flow f1 has a constant part that is not a finite number (division by"
                                + " zero, or too large?)"),
                // Sizes are followed through chains of references of any length, in either direction.
                error(CHAIN_BACK, ErrorCode.INVALID_VALUE, "line 10:31: size of flow f10 is negative (-1.073741824E9)"),
                error(
                        CHAIN_WINDING,
                        ErrorCode.INVALID_VALUE,
                        "line 12:31: size of flow f12 is negative (-1.073741824E9)"),
                error(
                        CHAIN_FORWARD,
                        ErrorCode.INVALID_VALUE,
                        "line 1:30: size of flow f1 is negative (-1.073741824E9)"),
                // Limits
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size " + "(".repeat(40) + "1" + ")".repeat(40),
                        ErrorCode.NESTING_TOO_DEEP,
                        "line 1:62: parentheses nested deeper than 32"),
                error(
                        "f1 10.0.0.1 -> 10.0.0.2 size 1" + "+1".repeat(300),
                        ErrorCode.EXPRESSION_TOO_LONG,
                        "line 1:543: value has more than 256 operators"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("invalidQueries")
    void reportsExactError(String query, ErrorCode code, String message) {
        QueryException exception = catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(query));
        assertThat(exception).as("query should be rejected:\n" + query).isNotNull();
        assertThat(exception.errors())
                .extracting(QueryError::code, QueryError::formatted)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(code, message));
    }

    @org.junit.jupiter.api.Test
    void reportsEverySemanticErrorAtOnceInPositionOrder() {
        String query = "A = ()\nf1 B -> 10.0.0.1 size sz(f7)\nf2 disk -> disk";
        QueryException exception = catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(query));
        assertThat(exception.errors())
                .extracting(QueryError::code)
                .containsExactly(
                        ErrorCode.EMPTY_CANDIDATES,
                        ErrorCode.UNDECLARED_VARIABLE,
                        ErrorCode.UNKNOWN_FLOW,
                        ErrorCode.DISK_TO_DISK);
        assertThat(exception.getMessage())
                .isEqualTo(String.join(
                        "\n",
                        List.of(
                                "line 1:1: variable 'A' has no candidate values",
                                "line 2:4: 'B' is not a declared variable (an endpoint is a variable, an IP address "
                                        + "or disk)",
                                "line 2:26: unknown flow in sz(f7): no flow is named 'f7'",
                                "line 3:1: flow f2 goes from disk to disk; one end must be a host or a variable")));
    }

    @org.junit.jupiter.api.Test
    void rejectsOversizedInputBeforeLexing() {
        String query = "#" + "x".repeat(1 << 20);
        QueryException exception = catchThrowableOfType(QueryException.class, () -> new QueryParser().parse(query));
        assertThat(exception.first().code()).isEqualTo(ErrorCode.INPUT_TOO_LARGE);
        assertThat(exception.first().formatted())
                .isEqualTo("line 1:1: query is 1048577 characters long, the limit is 1048576");
    }

    private static Arguments error(String query, ErrorCode code, String message) {
        return Arguments.of(query, code, message);
    }
}
