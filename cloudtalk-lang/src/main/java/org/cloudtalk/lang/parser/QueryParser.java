package org.cloudtalk.lang.parser;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.regex.Pattern;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.validate.QueryValidator;

/**
 * Entry point of the language front end: text in, validated {@link Query} out, or a {@link QueryException} that
 * says where the text is wrong. Stateless and thread-safe; ANTLR's prediction cache is shared between instances.
 */
public final class QueryParser {
    private static final Pattern LONE_CR = Pattern.compile("\r(?!\n)");

    private final ParserLimits limits;

    public QueryParser() {
        this(ParserLimits.DEFAULT);
    }

    public QueryParser(ParserLimits limits) {
        this.limits = requireNonNull(limits, "limits is null");
    }

    /** Parses and validates. */
    public Query parse(String text) {
        Query query = parseSyntax(text);
        QueryValidator.validate(query);
        return query;
    }

    /** Parses without semantic validation: the AST of any syntactically valid text. */
    public Query parseSyntax(String text) {
        requireNonNull(text, "text is null");
        if (text.startsWith("\uFEFF")) {
            // A byte order mark, as some editors write before UTF-8 text: not part of the query, and invisible in the
            // editor, so positions count from the character after it.
            text = text.substring(1);
        }
        if (text.length() > limits.maxQueryChars()) {
            throw new QueryException(
                    ErrorCode.INPUT_TOO_LARGE,
                    Span.at(1, 1),
                    "query is " + text.length() + " characters long, the limit is " + limits.maxQueryChars());
        }
        // A lone CR ends a line as LF and CR LF do, but the lexer counts lines at LF only: as LF, with the text's
        // length (and every offset in it) unchanged, errors after it name the right line.
        CloudTalkLexer lexer = new CloudTalkLexer(CharStreams.fromString(
                text.indexOf('\r') < 0 ? text : LONE_CR.matcher(text).replaceAll("\n")));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        checkShape(tokens.getTokens());

        CloudTalkParser parser = new CloudTalkParser(tokens);
        parser.removeErrorListeners();
        CloudTalkParser.QueryContext tree;
        // SLL is enough for almost every input and much faster; only a failure under SLL pays for full LL, which
        // also produces the precise error.
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        parser.setErrorHandler(new BailErrorStrategy());
        try {
            tree = parser.query();
        } catch (ParseCancellationException sllFailed) {
            tokens.seek(0);
            parser.reset();
            parser.addErrorListener(SyntaxErrorListener.INSTANCE);
            parser.setErrorHandler(new DefaultErrorStrategy());
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
            tree = parser.query();
        }
        return new AstBuilder().build(tree);
    }

    /** Rejects inputs whose parse trees would be too deep for the recursive walks, before any recursion starts. */
    private void checkShape(List<Token> tokens) {
        int depth = 0;
        int operators = 0;
        for (Token token : tokens) {
            switch (token.getType()) {
                case CloudTalkLexer.LPAREN -> {
                    if (++depth > limits.maxNestingDepth()) {
                        throw new QueryException(
                                ErrorCode.NESTING_TOO_DEEP,
                                span(token),
                                "parentheses nested deeper than " + limits.maxNestingDepth());
                    }
                }
                case CloudTalkLexer.RPAREN -> depth = Math.max(0, depth - 1);
                case CloudTalkLexer.PLUS, CloudTalkLexer.MINUS, CloudTalkLexer.STAR, CloudTalkLexer.SLASH -> {
                    if (++operators > limits.maxExpressionOperators()) {
                        throw new QueryException(
                                ErrorCode.EXPRESSION_TOO_LONG,
                                span(token),
                                "value has more than " + limits.maxExpressionOperators() + " operators");
                    }
                }
                case CloudTalkLexer.START,
                        CloudTalkLexer.END,
                        CloudTalkLexer.SIZE,
                        CloudTalkLexer.RATE,
                        CloudTalkLexer.TRANSFER,
                        CloudTalkLexer.NEWLINE,
                        CloudTalkLexer.SEMI -> operators = 0;
                default -> {}
            }
        }
    }

    static Span span(Token token) {
        int column = token.getCharPositionInLine() + 1;
        // From the char indexes, not getText(): that would copy the text of every token a span is made for.
        int length = token.getType() == Token.EOF ? 0 : token.getStopIndex() - token.getStartIndex() + 1;
        return new Span(token.getLine(), column, token.getLine(), column + length);
    }
}
