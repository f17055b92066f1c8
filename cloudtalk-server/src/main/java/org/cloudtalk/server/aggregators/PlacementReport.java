package org.cloudtalk.server.aggregators;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.packet.PacketEvaluator.Simulated;

/**
 * The alternatives a placement search found: the best and worst single aggregator (all variables on one host) and the
 * best and worst placement over distinct hosts, each with its predicted query delay; the chosen one is the fastest of
 * all.
 */
public record PlacementReport(
        List<String> variables,
        Optional<Placement> bestSingle,
        Optional<Placement> worstSingle,
        Optional<Placement> bestSpread,
        Optional<Placement> worstSpread,
        Placement chosen,
        int simulated) {

    /** Hosts in variable order, and the simulated delay (infinite when some answer never arrived). */
    public record Placement(List<String> hosts, double seconds) {
        public Placement {
            hosts = List.copyOf(hosts);
        }

        public boolean single() {
            return hosts.stream().distinct().count() == 1;
        }
    }

    public PlacementReport {
        variables = List.copyOf(variables);
        requireNonNull(chosen, "chosen is null");
    }

    /** Classifies the simulated bindings of {@code query}; at least one must have been simulated. */
    public static PlacementReport of(AggregatorQuery query, List<Simulated> simulated) {
        if (simulated.isEmpty()) {
            throw new IllegalArgumentException("no placement was simulated");
        }
        List<String> variables = query.variables();
        List<Placement> singles = new ArrayList<>();
        List<Placement> spread = new ArrayList<>();
        for (Simulated one : simulated) {
            Placement placement = new Placement(hosts(variables, one.binding()), one.seconds());
            (placement.single() ? singles : spread).add(placement);
        }
        Comparator<Placement> byDelay = Comparator.comparingDouble(Placement::seconds);
        List<Placement> all = new ArrayList<>(singles);
        all.addAll(spread);
        return new PlacementReport(
                variables,
                singles.stream().min(byDelay),
                singles.stream().max(byDelay),
                spread.stream().min(byDelay),
                spread.stream().max(byDelay),
                all.stream().min(byDelay).orElseThrow(),
                simulated.size());
    }

    private static List<String> hosts(List<String> variables, Binding binding) {
        List<String> hosts = new ArrayList<>();
        for (String variable : variables) {
            hosts.add(binding.valueOf(variable));
        }
        return hosts;
    }
}
