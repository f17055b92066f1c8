package org.cloudtalk.testbed.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;

class SolrReplicasTest {
    private static final List<Host> HOSTS =
            IntStream.rangeClosed(1, 8).mapToObj(i -> Host.of("t", 77, i)).toList();
    /** Four shards, two replicas each, one replica per host. */
    private static final Map<String, List<String>> SHARDS = Map.of(
            "shard1", List.of(address(1), address(5)),
            "shard2", List.of(address(2), address(6)),
            "shard3", List.of(address(3), address(7)),
            "shard4", List.of(address(4), address(8)));

    @Test
    void upToHalfTheHostsBusyEveryShardKeepsAnIdleReplica() {
        for (int seed = 0; seed < 50; seed++) {
            for (double fraction : List.of(0.25, 0.5)) {
                List<Host> busy = SolrReplicas.pickBusy(context(fraction, seed), HOSTS, SHARDS);
                Set<String> addresses = busy.stream().map(Host::address).collect(Collectors.toSet());
                assertThat(busy).hasSize((int) Math.round(fraction * 8)).doesNotHaveDuplicates();
                assertThat(SHARDS.values())
                        .as("seed %d, busy %s", seed, addresses)
                        .allMatch(holders -> !addresses.containsAll(holders));
            }
        }
    }

    @Test
    void beyondHalfSomeShardsHaveOnlyBusyReplicas() {
        List<Host> busy = SolrReplicas.pickBusy(context(0.75, 3), HOSTS, SHARDS);
        Set<String> addresses = busy.stream().map(Host::address).collect(Collectors.toSet());
        assertThat(busy).hasSize(6);
        assertThat(SHARDS.values().stream().filter(addresses::containsAll)).hasSize(2);
    }

    @Test
    void aHostHoldingTwoShardsIsNotMadeBusyWhenThatLeavesAShardWithoutAnIdleReplica() {
        // Host 1 holds replicas of shard1 and shard2; with host 2 busy, host 1 would leave shard2 nothing idle.
        Map<String, List<String>> uneven = Map.of(
                "shard1", List.of(address(1), address(3)),
                "shard2", List.of(address(1), address(2)));
        List<Host> hosts = HOSTS.subList(0, 3);
        for (int seed = 0; seed < 50; seed++) {
            Set<String> busy = SolrReplicas.pickBusy(context(0.5, seed), hosts, uneven).stream()
                    .map(Host::address)
                    .collect(Collectors.toSet());
            assertThat(busy).hasSize(2);
            assertThat(uneven.values()).as("busy %s", busy).allMatch(holders -> !busy.containsAll(holders));
        }
    }

    private static RunContext context(double fraction, long seed) {
        return new RunContext(null, fraction, 1, Duration.ofSeconds(1), new Random(seed), Map.of());
    }

    private static String address(int index) {
        return Host.of("t", 77, index).address();
    }
}
