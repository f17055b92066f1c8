package org.cloudtalk.server.aggregators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.BindingEnumerator;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.packet.PacketEvaluator.Simulated;
import org.junit.jupiter.api.Test;

class AggregatorQueryTest {
    private static final List<Address> SERVERS = hosts("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5");
    private static final List<Address> CANDIDATES = hosts("10.9.0.1", "10.9.0.2", "10.9.0.3");
    private static final Address FRONTEND = Address.parse("10.8.0.1");

    private static List<Address> hosts(String... texts) {
        return java.util.Arrays.stream(texts).map(Address::parse).toList();
    }

    @Test
    void splitSendsEachServerToOneAggregatorInFileOrder() {
        AggregatorQuery query =
                new AggregatorQuery(SERVERS, CANDIDATES, FRONTEND, 2, 10240, AggregatorQuery.Shape.SPLIT);

        String text = query.text();

        assertThat(text.lines().findFirst()).contains("shared AGG1 = AGG2 = (10.9.0.1 10.9.0.2 10.9.0.3)");
        // 5 servers over 2 aggregators in file order: the first 3 to AGG1, the last 2 to AGG2.
        assertThat(text).contains("f1a 10.0.0.1 -> AGG1 size 10240", "f3a 10.0.0.3 -> AGG1 size 10240");
        assertThat(text).contains("f4a 10.0.0.4 -> AGG2 size 10240", "f5a 10.0.0.5 -> AGG2 size 10240");
        assertThat(text).contains("f4b AGG2 -> 10.8.0.1 size sz(f4a) transfer t(f4a)");
        assertThat(text.lines().filter(l -> l.contains(" -> AGG"))).hasSize(5);
        // It is a valid query, and AGG1/AGG2 are not interchangeable (their groups differ): 3 x 3 placements.
        QueryModel model = new QueryModel(new QueryParser().parse(text));
        assertThat(new BindingEnumerator(model).first(100)).hasSize(9);
    }

    @Test
    void everyHasEachAggregatorGatherFromEveryServerAndItsPlacementsComeWithoutSymmetricDuplicates() {
        AggregatorQuery query =
                new AggregatorQuery(SERVERS, CANDIDATES, FRONTEND, 2, 1000, AggregatorQuery.Shape.EVERY);

        String text = query.text();

        assertThat(text.lines().filter(l -> l.contains(" -> AGG1 "))).hasSize(5);
        assertThat(text.lines().filter(l -> l.contains(" -> AGG2 "))).hasSize(5);
        QueryModel model = new QueryModel(new QueryParser().parse(text));
        // Interchangeable aggregators: 3 singles + 3 pairs, not 9.
        assertThat(new BindingEnumerator(model).first(100)).hasSize(6);
    }

    @Test
    void refusesWhatCannotBePlaced() {
        assertThatThrownBy(() -> new AggregatorQuery(
                        SERVERS.subList(0, 1), CANDIDATES, FRONTEND, 2, 10, AggregatorQuery.Shape.SPLIT))
                .hasMessageContaining("cannot split 1 servers among 2 aggregators");
        assertThatThrownBy(
                        () -> new AggregatorQuery(List.of(), CANDIDATES, FRONTEND, 1, 10, AggregatorQuery.Shape.SPLIT))
                .hasMessageContaining("no servers");
        assertThatThrownBy(() -> new AggregatorQuery(SERVERS, List.of(), FRONTEND, 1, 10, AggregatorQuery.Shape.SPLIT))
                .hasMessageContaining("no candidate hosts");
        assertThatThrownBy(() -> new AggregatorQuery(SERVERS, CANDIDATES, FRONTEND, 0, 10, AggregatorQuery.Shape.SPLIT))
                .hasMessageContaining("between 1 and 100");
        assertThatThrownBy(() -> new AggregatorQuery(
                        SERVERS, CANDIDATES, FRONTEND, Integer.MAX_VALUE, 10, AggregatorQuery.Shape.EVERY))
                .hasMessageContaining("between 1 and 100");
    }

    @Test
    void reportSeparatesSingleAggregatorsFromPlacementsOnDistinctHostsAndChoosesTheFastest() {
        AggregatorQuery query =
                new AggregatorQuery(SERVERS, CANDIDATES, FRONTEND, 2, 10240, AggregatorQuery.Shape.SPLIT);
        List<Simulated> simulated = List.of(
                simulated("10.9.0.1", "10.9.0.1", 1.2),
                simulated("10.9.0.2", "10.9.0.2", 1.0),
                simulated("10.9.0.1", "10.9.0.2", 0.8),
                simulated("10.9.0.2", "10.9.0.1", 1.1),
                simulated("10.9.0.3", "10.9.0.1", Double.POSITIVE_INFINITY));

        PlacementReport report = PlacementReport.of(query, simulated);

        assertThat(report.bestSingle().orElseThrow().seconds()).isEqualTo(1.0);
        assertThat(report.worstSingle().orElseThrow().hosts()).containsExactly("10.9.0.1", "10.9.0.1");
        assertThat(report.bestSpread().orElseThrow().hosts()).containsExactly("10.9.0.1", "10.9.0.2");
        assertThat(report.worstSpread().orElseThrow().seconds()).isInfinite();
        assertThat(report.chosen().hosts()).containsExactly("10.9.0.1", "10.9.0.2");
        assertThat(report.simulated()).isEqualTo(5);
    }

    private static Simulated simulated(String agg1, String agg2, double seconds) {
        return new Simulated(new Binding(Map.of("AGG1", agg1, "AGG2", agg2)), seconds);
    }
}
