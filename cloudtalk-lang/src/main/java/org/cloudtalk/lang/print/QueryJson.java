package org.cloudtalk.lang.print;

import java.util.List;
import java.util.Map;
import org.cloudtalk.lang.QueryError;
import org.cloudtalk.lang.Span;
import org.cloudtalk.lang.ast.Attribute;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Expression;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.Identifier;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;

/**
 * The AST as JSON (for {@code ctquery --check --json} and for tools in other languages). Numbers carry both the
 * literal as written ({@code number}, {@code unit}) and the value in base units ({@code value}: bytes, bytes/s or
 * seconds). Hand-written to keep the language module free of dependencies beyond the ANTLR runtime.
 */
public final class QueryJson {
    private QueryJson() {}

    public static String toJson(Query query) {
        StringBuilder out = new StringBuilder("{\"variables\":[");
        List<VariableDeclaration> declarations = query.declarations();
        for (int i = 0; i < declarations.size(); i++) {
            out.append(i == 0 ? "" : ",");
            declaration(out, declarations.get(i));
        }
        out.append("],\"flows\":[");
        List<Flow> flows = query.flows();
        for (int i = 0; i < flows.size(); i++) {
            out.append(i == 0 ? "" : ",");
            flow(out, flows.get(i));
        }
        return out.append("]}").toString();
    }

    public static String toJson(List<QueryError> errors) {
        StringBuilder out = new StringBuilder("{\"errors\":[");
        for (int i = 0; i < errors.size(); i++) {
            QueryError error = errors.get(i);
            out.append(i == 0 ? "" : ",").append("{\"code\":");
            string(out, error.code().name());
            out.append(",\"message\":");
            string(out, error.message());
            position(out, error.span());
            out.append('}');
        }
        return out.append("]}").toString();
    }

    private static void declaration(StringBuilder out, VariableDeclaration declaration) {
        out.append("{\"names\":[");
        List<Identifier> names = declaration.names();
        for (int i = 0; i < names.size(); i++) {
            out.append(i == 0 ? "" : ",");
            string(out, names.get(i).value());
        }
        out.append("],\"shared\":").append(declaration.shared()).append(",\"candidates\":[");
        List<Endpoint> candidates = declaration.candidates();
        for (int i = 0; i < candidates.size(); i++) {
            out.append(i == 0 ? "" : ",");
            string(out, QueryPrinter.print(candidates.get(i)));
        }
        out.append(']');
        position(out, declaration.span());
        out.append('}');
    }

    private static void flow(StringBuilder out, Flow flow) {
        out.append("{\"position\":").append(flow.position());
        if (flow.name().isPresent()) {
            out.append(",\"name\":");
            string(out, flow.name().get().value());
        }
        out.append(",\"source\":");
        endpoint(out, flow.source());
        out.append(",\"destination\":");
        endpoint(out, flow.destination());
        out.append(",\"attributes\":{");
        boolean first = true;
        for (Map.Entry<Attribute, Expression> attribute : flow.attributes().entrySet()) {
            out.append(first ? "" : ",");
            first = false;
            string(out, attribute.getKey().keyword());
            out.append(':');
            expression(out, attribute.getValue());
        }
        out.append('}');
        position(out, flow.span());
        out.append('}');
    }

    private static void endpoint(StringBuilder out, Endpoint endpoint) {
        String kind;
        if (endpoint instanceof Endpoint.Variable) {
            kind = "variable";
        } else if (endpoint instanceof Endpoint.Host) {
            kind = "host";
        } else if (endpoint instanceof Endpoint.Disk) {
            kind = "disk";
        } else {
            kind = "unknownSource";
        }
        out.append("{\"kind\":\"").append(kind).append("\",\"text\":");
        string(out, QueryPrinter.print(endpoint));
        out.append('}');
    }

    private static void expression(StringBuilder out, Expression expression) {
        if (expression instanceof Expression.Number number) {
            out.append("{\"kind\":\"number\",\"number\":")
                    .append(QueryPrinter.formatNumber(number.number()))
                    .append(",\"unit\":");
            string(out, number.unit().symbol());
            out.append(",\"value\":")
                    .append(QueryPrinter.formatNumber(number.value()))
                    .append('}');
        } else if (expression instanceof Expression.Reference reference) {
            out.append("{\"kind\":\"reference\",\"attribute\":");
            string(out, reference.attribute().keyword());
            out.append(",\"flow\":");
            string(out, reference.flow().toString());
            out.append('}');
        } else {
            Expression.Binary binary = (Expression.Binary) expression;
            out.append("{\"kind\":\"binary\",\"operator\":");
            string(out, binary.operator().symbol());
            out.append(",\"left\":");
            expression(out, binary.left());
            out.append(",\"right\":");
            expression(out, binary.right());
            out.append('}');
        }
    }

    private static void position(StringBuilder out, Span span) {
        if (span.isKnown()) {
            out.append(",\"line\":").append(span.line()).append(",\"column\":").append(span.column());
        }
    }

    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
