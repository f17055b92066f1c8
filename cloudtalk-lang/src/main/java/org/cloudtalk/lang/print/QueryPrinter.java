package org.cloudtalk.lang.print;

import java.math.BigDecimal;
import java.util.stream.Collectors;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;

/**
 * The canonical text of a query: declarations first, then flows in order, one statement a line, attributes in the
 * order start end size rate transfer, single spaces, and only the parentheses precedence needs. Parsing the output
 * gives back the same AST (apart from source positions).
 */
public final class QueryPrinter {
    private QueryPrinter() {}

    public static String print(Query query) {
        StringBuilder out = new StringBuilder();
        for (VariableDeclaration declaration : query.declarations()) {
            out.append(print(declaration)).append('\n');
        }
        for (Flow flow : query.flows()) {
            out.append(print(flow)).append('\n');
        }
        return out.toString();
    }

    public static String print(VariableDeclaration declaration) {
        String names = declaration.names().stream().map(Identifier::value).collect(Collectors.joining(" = "));
        String candidates =
                declaration.candidates().stream().map(QueryPrinter::print).collect(Collectors.joining(" "));
        return (declaration.shared() ? "shared " : "") + names + " = (" + candidates + ")";
    }

    public static String print(Flow flow) {
        StringBuilder out = new StringBuilder();
        flow.name().ifPresent(name -> out.append(name.value()).append(' '));
        out.append(print(flow.source())).append(" -> ").append(print(flow.destination()));
        flow.attributes()
                .forEach((attribute, value) ->
                        out.append(' ').append(attribute.keyword()).append(' ').append(print(value)));
        return out.toString();
    }

    public static String print(Endpoint endpoint) {
        if (endpoint instanceof Endpoint.Variable variable) {
            return variable.name();
        }
        if (endpoint instanceof Endpoint.Host host) {
            return host.address().text();
        }
        return endpoint instanceof Endpoint.Disk ? "disk" : "0.0.0.0";
    }

    public static String print(Expression expression) {
        if (expression instanceof Expression.Number number) {
            return formatNumber(number.number()) + number.unit().symbol();
        }
        if (expression instanceof Expression.Reference reference) {
            return reference.attribute().referenceFunction() + "(" + reference.flow() + ")";
        }
        Expression.Binary binary = (Expression.Binary) expression;
        int precedence = binary.operator().precedence();
        // Operators are left-associative: the right operand needs parentheses already at equal precedence.
        return operand(binary.left(), precedence, false)
                + " " + binary.operator().symbol() + " "
                + operand(binary.right(), precedence, true);
    }

    /** A number without exponent or trailing zeros, e.g. 256, 1.5, 0.001. */
    public static String formatNumber(double number) {
        return BigDecimal.valueOf(number).stripTrailingZeros().toPlainString();
    }

    private static String operand(Expression operand, int parentPrecedence, boolean right) {
        String text = print(operand);
        if (operand instanceof Expression.Binary binary) {
            int precedence = binary.operator().precedence();
            if (precedence < parentPrecedence || (right && precedence == parentPrecedence)) {
                return "(" + text + ")";
            }
        }
        return text;
    }
}
