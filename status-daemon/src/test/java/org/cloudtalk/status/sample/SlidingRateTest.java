package org.cloudtalk.status.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SlidingRateTest {
    private static final long MS = 1_000_000;

    @Test
    void reportsTheExactRateAfterOneWindowOfSteadyTraffic() {
        SlidingRate rate = new SlidingRate(1000 * MS, 6);
        long counter = 0;
        assertThat(rate.add(0, counter)).isZero();
        // 1 MB/s for the first second, then 3 MB/s: one window later only the new rate remains.
        double last = 0;
        for (long t = 250; t <= 3000; t += 250) {
            counter += t <= 1000 ? 250_000 : 750_000;
            last = rate.add(t * MS, counter);
            if (t == 1000) {
                assertThat(last).isCloseTo(1_000_000, within(1.0));
            }
        }
        assertThat(last).isCloseTo(3_000_000, within(1.0));
    }

    @Test
    void restartsWhenTheCounterGoesBackwards() {
        SlidingRate rate = new SlidingRate(1000 * MS, 6);
        rate.add(0, 1_000_000);
        rate.add(250 * MS, 2_000_000);
        assertThat(rate.add(500 * MS, 10)).isZero();
        assertThat(rate.add(750 * MS, 250_010)).isCloseTo(1_000_000, within(1.0));
    }
}
