package org.cloudtalk.lang.ast;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A whole query: its variable declarations and its flows, each list in source order. */
public record Query(List<VariableDeclaration> declarations, List<Flow> flows) {
    public Query {
        declarations = List.copyOf(requireNonNull(declarations, "declarations is null"));
        flows = List.copyOf(requireNonNull(flows, "flows is null"));
        for (int i = 0; i < flows.size(); i++) {
            if (flows.get(i).position() != i + 1) {
                throw new IllegalArgumentException(
                        "flow " + (i + 1) + " has position " + flows.get(i).position());
            }
        }
    }

    /** Every declared variable name, in declaration order, with the declaration that introduced it first. */
    public Map<String, VariableDeclaration> variables() {
        Map<String, VariableDeclaration> variables = new LinkedHashMap<>();
        for (VariableDeclaration declaration : declarations) {
            for (Identifier name : declaration.names()) {
                variables.putIfAbsent(name.value(), declaration);
            }
        }
        return variables;
    }

    /** The flow a reference points at, if there is one (a linear search; validation indexes names instead). */
    public Optional<Flow> flow(FlowSelector selector) {
        if (selector instanceof FlowSelector.ByPosition byPosition) {
            int position = byPosition.position();
            return position <= flows.size() ? Optional.of(flows.get(position - 1)) : Optional.empty();
        }
        String name = ((FlowSelector.ByName) selector).name();
        return flows.stream()
                .filter(flow ->
                        flow.name().map(Identifier::value).filter(name::equals).isPresent())
                .findFirst();
    }
}
