package org.cloudtalk.status.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayGuardTest {
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void acceptsFreshRequestsOnce() {
        ReplayGuard guard = new ReplayGuard(2000, 1000);
        assertThat(guard.check(1, NOW, NOW)).isNull();
        assertThat(guard.check(2, NOW - 1999, NOW)).isNull();
        assertThat(guard.check(0, NOW + 1999, NOW)).isNull();
        assertThat(guard.check(1, NOW, NOW + 10)).isEqualTo(DropReason.REPLAYED);
        assertThat(guard.check(0, NOW, NOW + 10)).isEqualTo(DropReason.REPLAYED);
    }

    @Test
    void rejectsTimestampsOutsideTheSkew() {
        ReplayGuard guard = new ReplayGuard(2000, 1000);
        assertThat(guard.check(1, NOW - 2001, NOW)).isEqualTo(DropReason.STALE);
        assertThat(guard.check(2, NOW + 2001, NOW)).isEqualTo(DropReason.STALE);
        // So far away that now - timestamp overflows: stale all the same.
        assertThat(guard.check(3, NOW - Long.MAX_VALUE - 1, NOW)).isEqualTo(DropReason.STALE);
        assertThat(guard.check(4, Long.MAX_VALUE, NOW)).isEqualTo(DropReason.STALE);
    }

    @Test
    void remembersIdsForAsLongAsTheirTimestampCouldPass() {
        ReplayGuard guard = new ReplayGuard(2000, 1000);
        long future = NOW + 2000;
        assertThat(guard.check(9, future, NOW)).isNull();
        // The latest moment the same timestamp is still fresh: 4 s later.
        for (long later = NOW + 500; later <= NOW + 4000; later += 500) {
            assertThat(guard.check(9, future, later))
                    .as("at +%d ms", later - NOW)
                    .isEqualTo(DropReason.REPLAYED);
        }
        assertThat(guard.check(9, future, NOW + 4001)).isEqualTo(DropReason.STALE);
    }

    @Test
    void growsToItsCapacityAndRemembersEveryId() {
        ReplayGuard guard = new ReplayGuard(2000, 100_000);
        for (long id = 1; id <= 100_000; id++) {
            assertThat(guard.check(id * 7919, NOW, NOW)).isNull();
        }
        assertThat(guard.check(100_001L * 7919, NOW, NOW)).isEqualTo(DropReason.REPLAY_CACHE_FULL);
        for (long id = 1; id <= 100_000; id += 997) {
            assertThat(guard.check(id * 7919, NOW, NOW)).isEqualTo(DropReason.REPLAYED);
        }
    }

    @Test
    void refusesWhenAGenerationIsFullRatherThanForgetting() {
        ReplayGuard guard = new ReplayGuard(2000, 3);
        assertThat(guard.check(1, NOW, NOW)).isNull();
        assertThat(guard.check(2, NOW, NOW)).isNull();
        assertThat(guard.check(3, NOW, NOW)).isNull();
        assertThat(guard.check(4, NOW, NOW)).isEqualTo(DropReason.REPLAY_CACHE_FULL);
        assertThat(guard.check(1, NOW, NOW)).isEqualTo(DropReason.REPLAYED);
        assertThat(guard.check(5, NOW + 4000, NOW + 4000)).isNull();
    }
}
