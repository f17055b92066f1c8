package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.Span;

/**
 * A flow {@code [name] src -> dst [start v] [end v] [size v] [rate v] [transfer v]}. {@code position} is its 1-based
 * place among the query's flows: the implicit identifier references may use instead of a name.
 */
public record Flow(
        int position,
        Optional<Identifier> name,
        Endpoint source,
        Endpoint destination,
        Map<Attribute, Expression> attributes,
        Span span)
        implements Node {
    public Flow {
        if (position < 1) {
            throw new IllegalArgumentException("flow positions start at 1: " + position);
        }
        requireNonNull(name, "name is null");
        requireNonNull(source, "source is null");
        requireNonNull(destination, "destination is null");
        requireNonNull(attributes, "attributes is null");
        requireNonNull(span, "span is null");
        attributes = attributes.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(attributes));
    }

    public Optional<Expression> attribute(Attribute attribute) {
        return Optional.ofNullable(attributes.get(attribute));
    }

    public boolean has(Attribute attribute) {
        return attributes.containsKey(attribute);
    }

    /** How messages name it: {@code f1}, or {@code #3} for an unnamed third flow. */
    public String displayName() {
        return name.map(Identifier::value).orElse("#" + position);
    }
}
