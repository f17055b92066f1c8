package org.cloudtalk.lang;

import java.util.LinkedHashMap;
import java.util.Map;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;

/** Test helper: the same AST with every span set to {@link Span#NONE}, so that structure can be compared. */
public final class Spans {
    private Spans() {}

    public static Query erase(Query query) {
        return new Query(
                query.declarations().stream().map(Spans::erase).toList(),
                query.flows().stream().map(Spans::erase).toList());
    }

    private static VariableDeclaration erase(VariableDeclaration declaration) {
        return new VariableDeclaration(
                declaration.names().stream().map(Spans::erase).toList(),
                declaration.candidates().stream().map(Spans::erase).toList(),
                declaration.shared(),
                Span.NONE);
    }

    private static Flow erase(Flow flow) {
        Map<org.cloudtalk.lang.ast.Attribute, Expression> attributes = new LinkedHashMap<>();
        flow.attributes().forEach((attribute, value) -> attributes.put(attribute, erase(value)));
        return new Flow(
                flow.position(),
                flow.name().map(Spans::erase),
                erase(flow.source()),
                erase(flow.destination()),
                attributes,
                Span.NONE);
    }

    private static Identifier erase(Identifier identifier) {
        return new Identifier(identifier.value(), Span.NONE);
    }

    private static Endpoint erase(Endpoint endpoint) {
        if (endpoint instanceof Endpoint.Variable variable) {
            return new Endpoint.Variable(variable.name(), Span.NONE);
        }
        if (endpoint instanceof Endpoint.Host host) {
            return new Endpoint.Host(host.address(), Span.NONE);
        }
        return endpoint instanceof Endpoint.Disk ? new Endpoint.Disk(Span.NONE) : new Endpoint.UnknownSource(Span.NONE);
    }

    private static Expression erase(Expression expression) {
        if (expression instanceof Expression.Number number) {
            return new Expression.Number(number.number(), number.unit(), Span.NONE);
        }
        if (expression instanceof Expression.Reference reference) {
            FlowSelector selector = reference.flow() instanceof FlowSelector.ByName byName
                    ? new FlowSelector.ByName(byName.name(), Span.NONE)
                    : new FlowSelector.ByPosition(((FlowSelector.ByPosition) reference.flow()).position(), Span.NONE);
            return new Expression.Reference(reference.attribute(), selector, Span.NONE);
        }
        Expression.Binary binary = (Expression.Binary) expression;
        return new Expression.Binary(binary.operator(), erase(binary.left()), erase(binary.right()), Span.NONE);
    }
}
