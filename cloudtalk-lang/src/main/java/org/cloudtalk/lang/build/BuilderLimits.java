package org.cloudtalk.lang.build;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryError;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.parser.ParserLimits;

/**
 * The parser's limits, applied to values built in code: a built query must be one the parser (and so a server) takes,
 * and a value nested thousands deep must be refused before anything walks it recursively.
 */
final class BuilderLimits {
    private static final ParserLimits LIMITS = ParserLimits.DEFAULT;

    private BuilderLimits() {}

    /** @throws QueryException {@code EXPRESSION_TOO_LONG} or {@code NESTING_TOO_DEEP}, as the parser would say */
    static void check(Expression value) {
        // Counted without recursion: the value may be nested deeper than a stack.
        int operators = 0;
        Deque<Expression> pending = new ArrayDeque<>(List.of(value));
        while (!pending.isEmpty()) {
            if (pending.pop() instanceof Expression.Binary binary) {
                if (++operators > LIMITS.maxExpressionOperators()) {
                    throw refused(
                            ErrorCode.EXPRESSION_TOO_LONG,
                            "value has more than " + LIMITS.maxExpressionOperators() + " operators");
                }
                pending.push(binary.left());
                pending.push(binary.right());
            }
        }
        if (parentheses(value, Integer.MIN_VALUE, false) > LIMITS.maxNestingDepth()) {
            throw refused(ErrorCode.NESTING_TOO_DEEP, "parentheses nested deeper than " + LIMITS.maxNestingDepth());
        }
    }

    /** How deep the printed value nests its parentheses (operators bounded above: recursion is safe here). */
    private static int parentheses(Expression value, int parentPrecedence, boolean right) {
        if (!(value instanceof Expression.Binary binary)) {
            // The parser counts every '(': a reference's own, sz(f1), is one more level where it sits.
            return value instanceof Expression.Reference ? 1 : 0;
        }
        int precedence = binary.operator().precedence();
        // As QueryPrinter: the right operand of an equal precedence needs them too (left-associative operators).
        int own = precedence < parentPrecedence || (right && precedence == parentPrecedence) ? 1 : 0;
        return own
                + Math.max(
                        parentheses(binary.left(), precedence, false), parentheses(binary.right(), precedence, true));
    }

    private static QueryException refused(ErrorCode code, String message) {
        return new QueryException(List.of(new QueryError(code, Span.NONE, message)));
    }
}
