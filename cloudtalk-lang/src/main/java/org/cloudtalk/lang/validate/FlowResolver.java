package org.cloudtalk.lang.validate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Flow;
import org.cloudtalk.lang.ast.FlowSelector;
import org.cloudtalk.lang.ast.Query;

/** Resolves references to flows in constant time, so that validating a query is linear in its size. */
final class FlowResolver {
    private final List<Flow> flows;
    private final Map<String, Flow> byName = new HashMap<>();

    FlowResolver(Query query) {
        this.flows = query.flows();
        for (Flow flow : flows) {
            // The first definition wins, as in Query.flow; later ones are reported as duplicates.
            flow.name().ifPresent(name -> byName.putIfAbsent(name.value(), flow));
        }
    }

    Optional<Flow> resolve(FlowSelector selector) {
        if (selector instanceof FlowSelector.ByPosition byPosition) {
            int position = byPosition.position();
            return position <= flows.size() ? Optional.of(flows.get(position - 1)) : Optional.empty();
        }
        return Optional.ofNullable(byName.get(((FlowSelector.ByName) selector).name()));
    }
}
