package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Pseudo-reservations over time, with a fake clock: in full for the hold, then fading linearly over the fade. */
class ReservationsTest {
    private static final long MS = 1_000_000L;
    private static final ReservedLoad TEN_RX = new ReservedLoad(10e6, 0, 0, 0);

    final AtomicLong clock = new AtomicLong(123 * MS);

    private Reservations reservations(long holdMs, long fadeMs) {
        return new Reservations(Duration.ofMillis(holdMs), Duration.ofMillis(fadeMs), clock::get);
    }

    private void reserve(Reservations reservations, String host, ReservedLoad load) {
        Reservations.Snapshot seen = reservations.snapshot(Set.of(host));
        assertThat(reservations.reserve(Map.of(host, load), seen, false)).isTrue();
    }

    private double rxAfter(Reservations reservations, long ms) {
        clock.addAndGet(ms * MS);
        ReservedLoad load = reservations.snapshot(Set.of("h")).loads().get("h");
        return load == null ? 0 : load.rx();
    }

    @Test
    void countsInFullForTheHoldThenFadesLinearlyToNothing() {
        Reservations reservations = reservations(500, 1000);
        reserve(reservations, "h", TEN_RX);
        assertThat(rxAfter(reservations, 499)).isEqualTo(10e6);
        assertThat(rxAfter(reservations, 251)).isCloseTo(7.5e6, within(1.0)); // 750 ms: a quarter of the fade
        assertThat(rxAfter(reservations, 500)).isCloseTo(2.5e6, within(1.0)); // 1250 ms
        assertThat(reservations.size()).isEqualTo(1);
        assertThat(rxAfter(reservations, 250)).isZero(); // 1500 ms: ended
        assertThat(reservations.size()).isZero();
    }

    @Test
    void aReservationLastSeenInFullIsGoneOnceItsFadeIsOverAndFadesFromItsHoldsEndExactly() {
        Reservations reservations = reservations(500, 1000);
        reserve(reservations, "h", new ReservedLoad(1e6, 2e6, 3e6, 4e6));
        clock.addAndGet(500 * MS);
        ReservedLoad atHoldsEnd = reservations.snapshot(Set.of("h")).loads().get("h");
        assertThat(atHoldsEnd.rx()).isCloseTo(1e6, within(1e-3));
        assertThat(atHoldsEnd.diskWrite()).isCloseTo(4e6, within(1e-3));
        clock.addAndGet(500 * MS);
        ReservedLoad halfFaded = reservations.snapshot(Set.of("h")).loads().get("h");
        assertThat(halfFaded.diskRead()).isCloseTo(1.5e6, within(1e-3));
        assertThat(halfFaded.diskWrite()).isCloseTo(2e6, within(1e-3));

        reserve(reservations, "g", TEN_RX);
        assertThat(rxAfter(reservations, 2_000)).isZero(); // "h": faded out between two looks
        assertThat(reservations.snapshot(Set.of("g")).loads()).isEmpty();
        assertThat(reservations.size()).isZero();
    }

    /**
     * A reservation counts W times in the heuristic's view (whose score weighs use by 1/W) and once in the flow
     * estimators' (which take use as it is): 400 Mbit/s reserved of 1 Gbit/s leaves a 1 GiB flow 600 Mbit/s, not 200.
     */
    @Test
    void theFlowEstimatorsSeeAReservationAtItsRateAndTheHeuristicWeighsIt() {
        Reservations reservations = reservations(500, 1000);
        double gigabit = 125e6;
        reserve(reservations, "10.0.0.1", new ReservedLoad(50e6, 0, 0, 0));
        org.cloudtalk.server.state.HostLoad idle =
                new org.cloudtalk.server.state.HostLoad(gigabit, 0, gigabit, 0, 200e6, 0, 200e6, 0);
        org.cloudtalk.server.state.ClusterState state = reservations
                .snapshot(Set.of("10.0.0.1"))
                .applyTo(new org.cloudtalk.server.state.ClusterState(Map.of("10.0.0.1", idle)), Set.of(), 2);

        assertThat(state.load("10.0.0.1").rxUse()).isEqualTo(100e6);
        assertThat(state.estimatedLoad("10.0.0.1").rxUse()).isEqualTo(50e6);
        org.cloudtalk.server.eval.QueryModel query = new org.cloudtalk.server.eval.QueryModel(
                new org.cloudtalk.lang.parser.QueryParser().parse("f1 0.0.0.0 -> 10.0.0.1 size 1G"));
        double seconds = new org.cloudtalk.server.eval.flow.FlowEstimator()
                .estimate(query, new org.cloudtalk.server.eval.Binding(Map.of()), state)
                .completionSeconds();
        assertThat(seconds).isCloseTo((1L << 30) / 75e6, within(1e-6));
    }

    /** A status file may give capacities near the largest double: reservations at them stay finite as they add up. */
    @Test
    void reservationsAtTheLargestRatesStayFiniteAsTheyAddUpAndExpire() {
        Reservations reservations = reservations(500, 1000);
        ReservedLoad huge = new ReservedLoad(Double.MAX_VALUE, 1e308, 0, 0);
        for (int i = 0; i < 20; i++) {
            reserve(reservations, "h", huge);
            clock.addAndGet(100 * MS);
        }
        for (int step = 0; step < 30; step++) {
            ReservedLoad load = reservations.snapshot(Set.of("h")).loads().getOrDefault("h", ReservedLoad.NONE);
            assertThat(load.rx()).isFinite().isNotNegative();
            assertThat(load.tx()).isFinite().isNotNegative();
            org.cloudtalk.server.state.HostLoad counted =
                    load.addTo(new org.cloudtalk.server.state.HostLoad(1e308, 1e308, 1e308, 0, 1, 0, 1, 0), 2);
            assertThat(counted.rxUse()).isFinite();
            clock.addAndGet(100 * MS);
        }
        assertThat(reservations.size()).isZero();
    }

    @Test
    void withoutAFadeAReservationEndsWithItsHoldAsInThePaper() {
        Reservations reservations = reservations(300, 0);
        reserve(reservations, "h", TEN_RX);
        assertThat(rxAfter(reservations, 299)).isEqualTo(10e6);
        assertThat(rxAfter(reservations, 1)).isZero();
        assertThat(reservations.sizeSpread()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aFlowsSizeIsSpreadOverTheReservationsWeightAndNoHoldMeansNoReservations() {
        assertThat(reservations(500, 1000).sizeSpread()).isEqualTo(Duration.ofMillis(1000));
        Reservations none = reservations(0, 1000);
        assertThat(none.sizeSpread()).isZero();
        reserve(none, "h", TEN_RX);
        assertThat(none.snapshot(Set.of("h")).loads()).isEmpty();
    }

    /** Also on a clock far from zero and after months of the server's uptime. */
    @Test
    void overlappingReservationsAddUpAsTheSumOfEachOnesShareAtEveryMoment() {
        clock.set(Long.MAX_VALUE / 2);
        Reservations reservations = reservations(500, 1000);
        clock.addAndGet(10_000_000L * 1_000_000_000L);
        Random random = new Random(20261129L);
        record Made(ReservedLoad load, long at) {}
        List<Made> made = new ArrayList<>();
        for (int step = 0; step < 5_000; step++) {
            clock.addAndGet(random.nextInt(40) * MS + random.nextInt(1_000_000));
            if (random.nextInt(3) == 0) {
                ReservedLoad load = new ReservedLoad(random.nextDouble() * 1e8, random.nextDouble() * 1e7, 0, 5e6);
                reserve(reservations, "h", load);
                made.add(new Made(load, clock.get()));
            }
            ReservedLoad expected = ReservedLoad.NONE;
            for (Made m : made) {
                long age = clock.get() - m.at();
                double share = age < 500 * MS ? 1 : Math.max(0, 1 - (age - 500 * MS) / (1000.0 * MS));
                expected = expected.plus(m.load().times(share));
            }
            ReservedLoad actual = reservations.snapshot(Set.of("h")).loads().getOrDefault("h", ReservedLoad.NONE);
            assertThat(actual.rx()).isCloseTo(expected.rx(), within(1e-3 * Math.max(1, expected.rx())));
            assertThat(actual.tx()).isCloseTo(expected.tx(), within(1e-3 * Math.max(1, expected.tx())));
            assertThat(actual.diskWrite())
                    .isCloseTo(expected.diskWrite(), within(1e-3 * Math.max(1, expected.diskWrite())));
        }
    }

    @Test
    void negativeTimesAreRefused() {
        assertThatThrownBy(() -> reservations(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reservations(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
