package org.cloudtalk.lang.parser;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.cloudtalk.lang.ErrorCode;
import org.cloudtalk.lang.QueryException;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Operator;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.Unit;
import org.cloudtalk.lang.ast.VariableDeclaration;

/** Builds the AST from ANTLR's parse tree, checking the lexical forms the grammar leaves open (units, addresses). */
final class AstBuilder {
    private static final String KNOWN_UNITS =
            "K M G T, B KB MB GB TB, Bps KBps MBps GBps TBps, " + "bps Kbps Mbps Gbps Tbps, s ms us";
    /** The start of a unit suffix that is an exponent (the lexer takes 1e3 and 1.5E-2 as one number). */
    private static final Pattern EXPONENT = Pattern.compile("[eE][+-]?[0-9]");

    Query build(CloudTalkParser.QueryContext query) {
        List<VariableDeclaration> declarations = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        for (CloudTalkParser.StatementContext statement : query.statement()) {
            if (statement instanceof CloudTalkParser.VariableDeclarationContext declaration) {
                declarations.add(declaration(declaration));
            } else {
                flows.add(flow((CloudTalkParser.FlowStatementContext) statement, flows.size() + 1));
            }
        }
        return new Query(declarations, flows);
    }

    private VariableDeclaration declaration(CloudTalkParser.VariableDeclarationContext context) {
        List<Identifier> names =
                context.names.stream().map(AstBuilder::identifier).toList();
        List<Endpoint> candidates = new ArrayList<>();
        for (CloudTalkParser.CandidateContext candidate : context.candidateList().candidates) {
            if (candidate instanceof CloudTalkParser.DiskCandidateContext disk) {
                candidates.add(new Endpoint.Disk(span(disk)));
            } else {
                CloudTalkParser.AddressContext address =
                        ((CloudTalkParser.AddressCandidateContext) candidate).address();
                candidates.add(Endpoint.of(address(address), span(address)));
            }
        }
        return new VariableDeclaration(names, candidates, context.SHARED() != null, span(context));
    }

    private Flow flow(CloudTalkParser.FlowStatementContext context, int position) {
        Map<Attribute, Expression> attributes = new EnumMap<>(Attribute.class);
        Map<Attribute, Span> firstSeen = new EnumMap<>(Attribute.class);
        for (CloudTalkParser.AttributeContext attribute : context.attribute()) {
            Attribute kind = attribute(attribute.kind);
            Span where = QueryParser.span(attribute.kind);
            Span earlier = firstSeen.putIfAbsent(kind, where);
            if (earlier != null) {
                throw new QueryException(
                        ErrorCode.DUPLICATE_ATTRIBUTE,
                        where,
                        kind.keyword() + " is given twice (first at line " + earlier.line() + ":" + earlier.column()
                                + ")");
            }
            attributes.put(kind, expression(attribute.value));
        }
        if (context.name != null && context.src.getStart().getStartIndex() == context.name.getStopIndex() + 1) {
            // No space between them: an IPv6 address whose first group is too long to lex as one ("deadbeefcafe::1"
            // reads as a flow named deadbeefcafe from ::1), not a name and an endpoint.
            String text = context.name.getText() + context.src.getText();
            throw new QueryException(
                    ErrorCode.INVALID_ADDRESS,
                    QueryParser.span(context.name),
                    "invalid IPv6 address '" + text + "': group '" + context.name.getText()
                            + "' is not 1 to 4 hex digits (or, if it is a flow's name, put a space after it)");
        }
        Optional<Identifier> name = Optional.ofNullable(context.name).map(AstBuilder::identifier);
        return new Flow(position, name, endpoint(context.src), endpoint(context.dst), attributes, span(context));
    }

    private static Attribute attribute(Token keyword) {
        return switch (keyword.getType()) {
            case CloudTalkLexer.START -> Attribute.START;
            case CloudTalkLexer.END -> Attribute.END;
            case CloudTalkLexer.SIZE -> Attribute.SIZE;
            case CloudTalkLexer.RATE -> Attribute.RATE;
            case CloudTalkLexer.TRANSFER -> Attribute.TRANSFER;
            default -> throw new IllegalStateException("not an attribute keyword: " + keyword.getText());
        };
    }

    private Endpoint endpoint(CloudTalkParser.EndpointContext context) {
        if (context instanceof CloudTalkParser.VariableEndpointContext variable) {
            return new Endpoint.Variable(variable.IDENT().getText(), span(context));
        }
        if (context instanceof CloudTalkParser.DiskEndpointContext) {
            return new Endpoint.Disk(span(context));
        }
        return Endpoint.of(address(((CloudTalkParser.AddressEndpointContext) context).address()), span(context));
    }

    private static Address address(CloudTalkParser.AddressContext context) {
        String text = context.getStart().getText();
        try {
            return Address.parse(text);
        } catch (IllegalArgumentException e) {
            String family = context.IPV6() != null ? "IPv6" : "IPv4";
            throw new QueryException(
                    ErrorCode.INVALID_ADDRESS,
                    span(context),
                    "invalid " + family + " address '" + text + "': " + e.getMessage());
        }
    }

    private Expression expression(CloudTalkParser.ExpressionContext context) {
        if (context instanceof CloudTalkParser.BinaryExpressionContext binary) {
            return new Expression.Binary(
                    Operator.bySymbol(binary.op.getText()),
                    expression(binary.left),
                    expression(binary.right),
                    span(context));
        }
        if (context instanceof CloudTalkParser.ParenthesizedExpressionContext parenthesized) {
            return expression(parenthesized.inner);
        }
        if (context instanceof CloudTalkParser.NumberLiteralContext number) {
            return number(number.NUMBER().getSymbol());
        }
        return reference((CloudTalkParser.AttributeReferenceContext) context);
    }

    private static Expression.Number number(Token token) {
        String text = token.getText();
        int unitStart = 0;
        while (unitStart < text.length()
                && (Character.isDigit(text.charAt(unitStart)) || text.charAt(unitStart) == '.')) {
            unitStart++;
        }
        String suffix = text.substring(unitStart);
        if (EXPONENT.matcher(suffix).lookingAt()) {
            throw new QueryException(
                    ErrorCode.INVALID_NUMBER,
                    QueryParser.span(token),
                    "number '" + text + "' has an exponent, which the language does not take: write the digits, or"
                            + " a multiple such as 1K, 1M, 1G (or KB, MB, GB)");
        }
        Unit unit = Unit.bySuffix(suffix)
                .orElseThrow(() -> new QueryException(
                        ErrorCode.UNKNOWN_UNIT,
                        QueryParser.span(token),
                        "unknown unit '" + suffix + "' in '" + text + "', expected one of " + KNOWN_UNITS));
        double number = Double.parseDouble(text.substring(0, unitStart));
        if (!Double.isFinite(number * unit.multiplier())) {
            throw new QueryException(
                    ErrorCode.INVALID_NUMBER, QueryParser.span(token), "number '" + text + "' is too large");
        }
        return new Expression.Number(number, unit, QueryParser.span(token));
    }

    private static Expression.Reference reference(CloudTalkParser.AttributeReferenceContext context) {
        String function = context.function.getText();
        Attribute attribute = Attribute.byReferenceFunction(function)
                .orElseThrow(() -> new QueryException(
                        ErrorCode.UNKNOWN_FUNCTION,
                        QueryParser.span(context.function),
                        "unknown function '" + function + "', expected st, e, sz, r or t"));
        return new Expression.Reference(attribute, flowSelector(function, context.target), span(context));
    }

    private static FlowSelector flowSelector(String function, CloudTalkParser.FlowTargetContext context) {
        if (context instanceof CloudTalkParser.FlowByNameContext byName) {
            return new FlowSelector.ByName(byName.IDENT().getText(), span(context));
        }
        String text = context.getText();
        if (!text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new QueryException(
                    ErrorCode.INVALID_NUMBER,
                    span(context),
                    "'" + text + "' is not a flow: use a flow's name or its position (1, 2, ...)");
        }
        // A position no query can have is an unknown flow, as one past this query's flows is.
        String digits = text.replaceFirst("^0+(?=.)", "");
        if (digits.equals("0") || digits.length() > 9) {
            throw new QueryException(
                    ErrorCode.UNKNOWN_FLOW,
                    span(context),
                    "unknown flow in " + function + "(" + text + "): "
                            + (digits.equals("0") ? "positions start at 1" : "no query has that many flows"));
        }
        return new FlowSelector.ByPosition(Integer.parseInt(digits), span(context));
    }

    private static Identifier identifier(Token token) {
        return new Identifier(token.getText(), QueryParser.span(token));
    }

    private static Span span(ParserRuleContext context) {
        Span start = QueryParser.span(context.getStart());
        Span stop = QueryParser.span(context.getStop());
        return new Span(start.line(), start.column(), stop.endLine(), stop.endColumn());
    }
}
