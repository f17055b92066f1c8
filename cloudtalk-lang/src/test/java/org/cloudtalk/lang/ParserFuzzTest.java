package org.cloudtalk.lang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.lang.print.QueryPrinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Randomized robustness test: on generated and mutated inputs the parser either returns an AST or throws
 * {@link QueryException}, never anything else, and never takes long on one input. Every input that parses must also
 * survive print → parse unchanged. Reproduce a failure with {@code -Dfuzz.seed=S}; size the run with
 * {@code -Dfuzz.inputs=N}.
 */
class ParserFuzzTest {
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 1_000_000);
    private static final long SEED = Long.getLong("fuzz.seed", 20261120L);
    /** Far above any honest parse (microseconds); only a hang or a blow-up gets near it. */
    private static final long MAX_NANOS_PER_INPUT = TimeUnit.SECONDS.toNanos(2);

    private static final String[] NAMES = {"A", "B", "X", "r1", "src", "f1", "f2", "size", "st", "_x9"};
    private static final String[] ADDRESSES = {
        "10.0.0.1", "10.0.0.2", "192.168.1.255", "0.0.0.0", "fe80::1", "::", "2001:db8::7", "1.2.3", "300.1.1.1", "disk"
    };
    private static final String[] NUMBERS = {"0", "1", "256M", "1.5G", "10KB", "100Mbps", "5s", "20ms", "3Q", "1.25TB"};
    private static final String[] FUNCTIONS = {"st", "e", "sz", "r", "t", "zz"};
    private static final String[] ATTRIBUTES = {"start", "end", "size", "rate", "transfer"};
    private static final String[] TOKENS = {
        "disk",
        "shared",
        "size",
        "rate",
        "start",
        "end",
        "transfer",
        "->",
        "=",
        "(",
        ")",
        ";",
        "\n",
        "#",
        "0.0.0.0",
        "::",
        "sz(f1)",
        "r(1)",
        "1M",
        "10Gbps",
        "fe80::1",
        "A",
        "f1",
        " ",
        "+",
        "*",
        "\r\n",
        "\t"
    };
    private static final String ALPHABET = "()=;->#\n\r\t :.+-*/0123456789abcdefAZ_xyz\u00e9\u0000\u00a0";

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void parserOnlyReturnsAstOrQueryException() {
        Random random = new Random(SEED);
        QueryParser parser = new QueryParser();
        List<String> seeds = new ArrayList<>(RoundTripTest.validQueries().toList());
        Set<ErrorCode> codesSeen = EnumSet.noneOf(ErrorCode.class);
        int parsed = 0;
        long slowest = 0;
        for (int i = 0; i < INPUTS; i++) {
            String input = i % 2 == 0 ? generate(random) : mutate(random, seeds);
            long start = System.nanoTime();
            try {
                Query query = parser.parse(input);
                parsed++;
                checkRoundTrip(parser, query, input);
                if (seeds.size() < 2_000 && random.nextInt(50) == 0) {
                    seeds.add(input);
                }
            } catch (QueryException expected) {
                codesSeen.add(expected.first().code());
                assertThat(expected.first().span().line()).isGreaterThanOrEqualTo(1);
            } catch (Throwable unexpected) {
                fail(
                        "input #" + i + " (seed " + SEED + ") threw " + unexpected + " for:\n" + escape(input),
                        unexpected);
            }
            long elapsed = System.nanoTime() - start;
            slowest = Math.max(slowest, elapsed);
            if (elapsed > MAX_NANOS_PER_INPUT) {
                fail("input #" + i + " took " + elapsed / 1_000_000 + " ms:\n" + escape(input));
            }
        }
        System.out.printf(
                "fuzz: %d inputs, %d valid, %d error codes seen, slowest %.1f ms%n",
                INPUTS, parsed, codesSeen.size(), slowest / 1e6);
        // The generator must reach both valid queries and a wide range of errors, or the test proves little.
        assertThat(parsed).isGreaterThan(INPUTS / 50);
        assertThat(codesSeen)
                .contains(
                        ErrorCode.SYNTAX_ERROR,
                        ErrorCode.INVALID_ADDRESS,
                        ErrorCode.UNKNOWN_UNIT,
                        ErrorCode.UNDECLARED_VARIABLE,
                        ErrorCode.UNKNOWN_FLOW,
                        ErrorCode.DUPLICATE_FLOW,
                        ErrorCode.SAME_ENDPOINT,
                        ErrorCode.UNIT_MISMATCH);
    }

    private static void checkRoundTrip(QueryParser parser, Query query, String input) {
        String printed = QueryPrinter.print(query);
        Query reparsed = parser.parse(printed);
        if (!Spans.erase(reparsed).equals(Spans.erase(query))) {
            fail("round trip changed the AST of:\n" + escape(input) + "\nprinted as:\n" + printed);
        }
    }

    /** A grammar-shaped query with plausible and implausible parts. */
    private static String generate(Random random) {
        StringBuilder query = new StringBuilder();
        int declarations = random.nextInt(3);
        for (int d = 0; d < declarations; d++) {
            if (random.nextInt(8) == 0) {
                query.append("shared ");
            }
            int names = 1 + random.nextInt(3);
            for (int n = 0; n < names; n++) {
                query.append(pick(random, NAMES)).append(" = ");
            }
            query.append('(');
            int candidates = random.nextInt(5);
            for (int c = 0; c < candidates; c++) {
                query.append(c == 0 ? "" : " ").append(pick(random, ADDRESSES));
            }
            query.append(')').append(separator(random));
        }
        int flows = random.nextInt(5);
        for (int f = 0; f < flows; f++) {
            if (random.nextBoolean()) {
                query.append('f').append(1 + random.nextInt(4)).append(' ');
            }
            query.append(endpoint(random)).append(" -> ").append(endpoint(random));
            int attributes = random.nextInt(4);
            for (int a = 0; a < attributes; a++) {
                query.append(' ').append(pick(random, ATTRIBUTES)).append(' ').append(expression(random, 0));
            }
            query.append(separator(random));
        }
        return query.toString();
    }

    private static String endpoint(Random random) {
        return random.nextBoolean() ? pick(random, NAMES) : pick(random, ADDRESSES);
    }

    private static String expression(Random random, int depth) {
        int choice = random.nextInt(depth > 2 ? 2 : 5);
        return switch (choice) {
            case 0 -> pick(random, NUMBERS);
            case 1 -> pick(random, FUNCTIONS) + "(" + (random.nextBoolean() ? "f" : "") + (1 + random.nextInt(5)) + ")";
            case 2 -> "(" + expression(random, depth + 1) + ")";
            default -> expression(random, depth + 1) + " " + "+-*/".charAt(random.nextInt(4)) + " "
                    + expression(random, depth + 1);
        };
    }

    private static String separator(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> ";";
            case 1 -> "\n\n";
            case 2 -> "  # comment\n";
            default -> "\n";
        };
    }

    private static String mutate(Random random, List<String> seeds) {
        String text = seeds.get(random.nextInt(seeds.size()));
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            int length = text.length();
            int at = length == 0 ? 0 : random.nextInt(length + 1);
            int end = Math.min(length, at + random.nextInt(12));
            text = switch (random.nextInt(8)) {
                case 0 -> length == 0 ? text : replaceChar(text, Math.min(at, length - 1), random);
                case 1 -> text.substring(0, at) + pick(random, TOKENS) + text.substring(at);
                case 2 -> text.substring(0, at) + text.substring(end);
                case 3 -> text.substring(0, end) + text.substring(at, end) + text.substring(end);
                case 4 -> text.substring(0, at);
                case 5 -> {
                    String other = seeds.get(random.nextInt(seeds.size()));
                    yield text.substring(0, at) + other.substring(random.nextInt(other.length() + 1));
                }
                case 6 -> text.substring(0, at)
                        + String.valueOf("(+)-*#".charAt(random.nextInt(6))).repeat(1 + random.nextInt(400))
                        + text.substring(at);
                default -> text.substring(0, at) + (char) random.nextInt(0x3000) + text.substring(at);
            };
        }
        return text;
    }

    private static String replaceChar(String text, int at, Random random) {
        return text.substring(0, at) + ALPHABET.charAt(random.nextInt(ALPHABET.length())) + text.substring(at + 1);
    }

    private static String pick(Random random, String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String escape(String input) {
        return input.length() > 2_000 ? input.substring(0, 2_000) + "..." : input;
    }
}
