package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.cloudtalk.lang.Span;

/**
 * {@code [shared] A = B = (v1 v2 ...)}: each name becomes a variable whose candidate values are the list. Variables
 * bind to distinct values unless declared {@code shared}, in which case they may take a value another variable has.
 */
public record VariableDeclaration(List<Identifier> names, List<Endpoint> candidates, boolean shared, Span span)
        implements Node {
    public VariableDeclaration {
        names = List.copyOf(requireNonNull(names, "names is null"));
        candidates = List.copyOf(requireNonNull(candidates, "candidates is null"));
        requireNonNull(span, "span is null");
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a declaration names at least one variable");
        }
        for (Endpoint candidate : candidates) {
            if (candidate instanceof Endpoint.Variable) {
                throw new IllegalArgumentException("a candidate is an address or disk, not a variable: " + candidate);
            }
        }
    }
}
