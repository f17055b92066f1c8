package org.cloudtalk.server.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineTest {
    @Test
    void halfwayIsHalfTheTimeLeftOnTheSameClock() {
        long[] now = {0};
        Deadline deadline = Deadline.after(Duration.ofMillis(1000), () -> now[0]);
        now[0] = 200_000_000L;
        Deadline halfway = deadline.halfway();
        assertThat(halfway.remaining()).isEqualTo(Duration.ofMillis(400));
        now[0] = 600_000_000L;
        assertThat(halfway.expired()).isTrue();
        assertThat(deadline.expired()).isFalse();
        // Past the deadline, halfway is now: also past.
        now[0] = 1_500_000_000L;
        assertThat(deadline.halfway().expired()).isTrue();
        assertThat(Deadline.none().halfway()).isSameAs(Deadline.none());
    }
}
