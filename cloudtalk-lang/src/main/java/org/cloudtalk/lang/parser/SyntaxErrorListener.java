package org.cloudtalk.lang.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;

/**
 * Turns the first syntax error into a {@link QueryException} naming the offending token and what would have been
 * accepted there. Throwing on the first report means ANTLR never recovers silently.
 */
final class SyntaxErrorListener extends BaseErrorListener {
    static final SyntaxErrorListener INSTANCE = new SyntaxErrorListener();
    private static final int MAX_QUOTED_LENGTH = 32;

    @Override
    public void syntaxError(
            Recognizer<?, ?> recognizer,
            Object offendingSymbol,
            int line,
            int charPositionInLine,
            String antlrMessage,
            RecognitionException exception) {
        Token token = (Token) offendingSymbol;
        StringBuilder message = new StringBuilder();
        if (token.getType() == CloudTalkLexer.UNRECOGNIZED) {
            message.append("unexpected character ").append(quote(token.getText()));
        } else {
            message.append("unexpected ").append(describe(token));
        }
        IntervalSet expected = expectedTokens(recognizer, exception, token);
        if (expected != null && !expected.isNil()) {
            message.append(", expected ").append(describe(expected, recognizer.getVocabulary()));
        }
        throw new QueryException(ErrorCode.SYNTAX_ERROR, Span.at(line, charPositionInLine + 1), message.toString());
    }

    private static IntervalSet expectedTokens(
            Recognizer<?, ?> recognizer, RecognitionException exception, Token offending) {
        if (!(recognizer instanceof Parser parser)) {
            return null;
        }
        IntervalSet expected = new IntervalSet(
                exception != null && exception.getExpectedTokens() != null
                        ? exception.getExpectedTokens()
                        : parser.getExpectedTokens());
        addFlowContinuations(parser, offending, expected);
        return expected;
    }

    /**
     * A flow statement ends with an optional loop, so by the time a bad token is seen ANTLR has left the statement
     * and expects only a separator. What the user most likely meant is to go on with the flow: another attribute,
     * or more of the last value.
     */
    private static void addFlowContinuations(Parser parser, Token offending, IntervalSet expected) {
        if (!(parser.getContext() instanceof CloudTalkParser.QueryContext query)
                || query.statement().isEmpty()) {
            return;
        }
        CloudTalkParser.StatementContext last =
                query.statement(query.statement().size() - 1);
        if (!(last instanceof CloudTalkParser.FlowStatementContext flow)
                || last.getStop() == null
                || last.getStop().getTokenIndex() != offending.getTokenIndex() - 1) {
            return;
        }
        IntervalSet given = new IntervalSet();
        flow.attribute().forEach(attribute -> given.add(attribute.kind.getType()));
        for (int keyword : new int[] {
            CloudTalkLexer.START, CloudTalkLexer.END, CloudTalkLexer.SIZE, CloudTalkLexer.RATE, CloudTalkLexer.TRANSFER
        }) {
            if (!given.contains(keyword)) {
                expected.add(keyword);
            }
        }
        if (!flow.attribute().isEmpty()) {
            for (int operator :
                    new int[] {CloudTalkLexer.PLUS, CloudTalkLexer.MINUS, CloudTalkLexer.STAR, CloudTalkLexer.SLASH}) {
                expected.add(operator);
            }
        }
    }

    static String describe(Token token) {
        return switch (token.getType()) {
            case Token.EOF -> "end of input";
            case CloudTalkLexer.NEWLINE -> "end of line";
            default -> quote(token.getText());
        };
    }

    private static String describe(IntervalSet expected, Vocabulary vocabulary) {
        boolean inExpression = expected.contains(CloudTalkLexer.NUMBER);
        TreeSet<String> names = new TreeSet<>();
        for (int type : expected.toArray()) {
            names.add(describe(type, vocabulary, inExpression));
        }
        List<String> sorted = new ArrayList<>(names);
        if (sorted.size() == 1) {
            return sorted.get(0);
        }
        return "one of " + String.join(", ", sorted);
    }

    private static String describe(int tokenType, Vocabulary vocabulary, boolean inExpression) {
        return switch (tokenType) {
            case Token.EOF -> "end of input";
            case CloudTalkLexer.NEWLINE -> "end of line";
            case CloudTalkLexer.NUMBER -> "number";
            case CloudTalkLexer.DOTTED -> "IPv4 address";
            case CloudTalkLexer.IPV6 -> "IPv6 address";
            case CloudTalkLexer.IDENT -> inExpression ? "reference such as sz(f1)" : "identifier";
            default -> vocabulary.getLiteralName(tokenType) != null
                    ? vocabulary.getLiteralName(tokenType)
                    : vocabulary.getDisplayName(tokenType);
        };
    }

    private static String quote(String text) {
        String shown = text.length() > MAX_QUOTED_LENGTH ? text.substring(0, MAX_QUOTED_LENGTH) + "..." : text;
        StringBuilder quoted = new StringBuilder("'");
        shown.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7f || invisible(c)) {
                // Beyond U+FFFF a \\u escape would read as four digits and a character: written U+XXXXX instead.
                quoted.append(c <= 0xFFFF ? String.format("\\u%04x", c) : String.format("U+%X", c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('\'').toString();
    }

    /** A character a message would show as nothing or as a space: a zero-width space, a no-break space, U+FEFF. */
    private static boolean invisible(int c) {
        int type = Character.getType(c);
        return c > 0x7f
                && (Character.isSpaceChar(c)
                        || Character.isWhitespace(c)
                        || type == Character.FORMAT
                        || type == Character.CONTROL);
    }
}
