package org.cloudtalk.server.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.cloudtalk.lang.parser.QueryParser;
import org.junit.jupiter.api.Test;

class BindingEnumeratorTest {
    private static final String POOL = "(10.0.0.1 10.0.0.2 10.0.0.3 10.0.0.4)";

    private static QueryModel model(String text) {
        return new QueryModel(new QueryParser().parse(text));
    }

    private static List<Binding> all(String text) {
        return new BindingEnumerator(model(text)).first(Integer.MAX_VALUE);
    }

    @Test
    void interchangeableReducersAreListedOncePerSetOfHosts() {
        String reducers = "R1 = R2 = R3 = " + POOL + "\n"
                + "0.0.0.0 -> R1 size 256M\n0.0.0.0 -> R2 size 256M\n0.0.0.0 -> R3 size 256M\n";
        List<Binding> bindings = all(reducers);

        // C(4,3) sets of hosts instead of 4*3*2 ordered bindings.
        assertThat(bindings).hasSize(4);
        Set<Set<String>> hostSets =
                bindings.stream().map(b -> Set.copyOf(b.values().values())).collect(Collectors.toSet());
        assertThat(hostSets).hasSize(4).allSatisfy(set -> assertThat(set).hasSize(3));
    }

    @Test
    void variablesWithDifferentRolesKeepEveryOrder() {
        assertThat(all("R1 = R2 = R3 = " + POOL + "\n"
                        + "0.0.0.0 -> R1 size 256M\n0.0.0.0 -> R2 size 256M\n0.0.0.0 -> R3 size 128M\n"))
                .hasSize(4 * 3 * 2 / 2); // R1 and R2 are twins; R3 is not
        // Separate declarations: different pools even if equal, so no symmetry is assumed.
        assertThat(all("R1 = " + POOL + "\nR2 = " + POOL + "\n0.0.0.0 -> R1 size 1M\n0.0.0.0 -> R2 size 1M\n"))
                .hasSize(12);
        // A flow one way between the two variables, or a flow of one referred to alone, breaks the symmetry.
        assertThat(all("A = B = " + POOL + "\nA -> B size 1M\n")).hasSize(12);
        assertThat(all("A = B = " + POOL + "\nf1 0.0.0.0 -> A size 1M\nf2 0.0.0.0 -> B size 1M\n"
                        + "10.0.1.1 -> 10.0.1.2 size 1M start e(f1)\n"))
                .hasSize(12);
        // So do references that a swap does not map onto the query's own.
        assertThat(all("A = B = " + POOL + "\nf1 0.0.0.0 -> A size 1M\nf2 0.0.0.0 -> B size 1M rate r(f1)\n"))
                .hasSize(12);
    }

    @Test
    void swapsThatMapFlowsAndTheirReferencesOntoEachOtherAreSymmetries() {
        // Flows both ways between the two: the swap exchanges them.
        assertThat(all("A = B = " + POOL + "\nA -> B size 1M\nB -> A size 1M\n"))
                .hasSize(6);
        // The paper's reducers: each pair of flows refers to itself, and the swap maps pair onto pair.
        String reducers = "x1 = x2 = " + POOL + "\n"
                + "f1 0.0.0.0 -> x1 size 1G rate r(f2)\nf2 x1 -> disk size 1G rate r(f1)\n"
                + "f3 0.0.0.0 -> x2 size 1G rate r(f4)\nf4 x2 -> disk size 1G rate r(f3)\n";
        BindingEnumerator enumerator = new BindingEnumerator(model(reducers));
        assertThat(enumerator.hasTwin(1)).isTrue();
        assertThat(enumerator.first(Integer.MAX_VALUE)).hasSize(6);
        assertThat(enumerator.bound()).isEqualTo(6);
        // Pairs coupled crosswise (each reducer's write follows the other's input) are still one symmetric shape.
        assertThat(all("x1 = x2 = " + POOL + "\n"
                        + "f1 0.0.0.0 -> x1 size 1G\nf2 x1 -> disk size 1G rate r(f3)\n"
                        + "f3 0.0.0.0 -> x2 size 1G\nf4 x2 -> disk size 1G rate r(f1)\n"))
                .hasSize(6);
        // A daisy chain is not symmetric under swapping its ends.
        assertThat(all("A = B = " + POOL + "\nf1 0.0.0.0 -> A size 1G\nf2 A -> B size sz(f1) transfer t(f1)\n"))
                .hasSize(12);
    }

    @Test
    void aQueryOfThousandsOfFlowsIsCheckedForTwinsWithoutExhaustingTheStack() {
        // Two aggregators gathering from the same 2,500 servers: each mapping of flows is 5,000 flows deep.
        StringBuilder query = new StringBuilder("A = B = " + POOL + "\n");
        for (int server = 0; server < 2_500; server++) {
            String address = "10.1." + server / 250 + "." + (server % 250 + 1);
            query.append(address).append(" -> A size 10K\n").append(address).append(" -> B size 10K\n");
        }
        BindingEnumerator enumerator = new BindingEnumerator(model(query.toString()));

        assertThat(enumerator.first(Integer.MAX_VALUE)).hasSize(6);
    }

    @Test
    void boundCountsSetsPerClassOfTwins() {
        assertThat(new BindingEnumerator(model("shared A = B = (10.0.0.1 10.0.0.2 10.0.0.3)\n"
                                + "A -> 10.0.0.9 size 1M\nB -> 10.0.0.9 size 1M\nC = " + POOL
                                + "\nC -> disk size 1M\n"))
                        .bound())
                .isEqualTo(6 * 4);
        assertThat(new BindingEnumerator(model("A = B = " + POOL + "\nA -> B size 1M\n")).bound())
                .isEqualTo(16);
    }

    @Test
    void sharedTwinsAreListedAsMultisets() {
        List<Binding> bindings =
                all("shared A = B = (10.0.0.1 10.0.0.2 10.0.0.3)\n" + "A -> 10.0.0.9 size 1M\nB -> 10.0.0.9 size 1M\n");
        // 3 * 4 / 2 multisets of two of three hosts, co-location included.
        assertThat(bindings).hasSize(6);
        assertThat(bindings).anySatisfy(b -> assertThat(b.valueOf("A")).isEqualTo(b.valueOf("B")));
    }

    @Test
    void everyOrderedBindingIsAPermutationOfAListedOne() {
        String text = "R1 = R2 = R3 = " + POOL + "\nS = (10.0.0.1 10.0.0.5)\n"
                + "0.0.0.0 -> R1 size 1M\n0.0.0.0 -> R2 size 1M\n0.0.0.0 -> R3 size 1M\nS -> 10.0.0.9 size 2M\n";
        Set<String> listed = new HashSet<>();
        for (Binding binding : all(text)) {
            listed.add(canonical(binding));
        }
        // Brute force over ordered bindings: each must map to a listed one once R1..R3 are sorted.
        String[] pool = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"};
        int ordered = 0;
        for (String r1 : pool) {
            for (String r2 : pool) {
                for (String r3 : pool) {
                    for (String s : new String[] {"10.0.0.1", "10.0.0.5"}) {
                        if (new HashSet<>(List.of(r1, r2, r3, s)).size() == 4) {
                            ordered++;
                            assertThat(listed)
                                    .contains(canonical(new Binding(Map.of("R1", r1, "R2", r2, "R3", r3, "S", s))));
                        }
                    }
                }
            }
        }
        assertThat(ordered).isEqualTo(24 + 6); // S=.5: 4*3*2 orders; S=.1: 3*2*1
        assertThat(listed).hasSize(4 + 1);
    }

    @Test
    void stopsAtTheLimit() {
        assertThat(new BindingEnumerator(model("A = " + POOL + "\nB = " + POOL + "\nA -> B size 1M\n")).first(5))
                .hasSize(5);
    }

    /** The binding with the reducers' hosts sorted: equal for bindings that differ by a permutation of R1..R3. */
    private static String canonical(Binding binding) {
        Map<String, String> values = new TreeMap<>(binding.values());
        List<String> reducers = List.of(values.get("R1"), values.get("R2"), values.get("R3")).stream()
                .sorted()
                .toList();
        return reducers + " " + values.get("S");
    }
}
