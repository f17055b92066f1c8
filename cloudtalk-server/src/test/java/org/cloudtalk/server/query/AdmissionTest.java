package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.cloudtalk.client.api.ApiError;
import org.junit.jupiter.api.Test;

class AdmissionTest {
    @Test
    void refusesATenantOverItsRateWithoutTouchingOthers() {
        Admission admission = new Admission(new TenantLimits(100, 10, 10, 10, 10, 1e-9, 3), 10);
        for (int i = 0; i < 3; i++) {
            admission.admit("10.0.0.1").close();
        }
        QueryRejectedException refused =
                catchThrowableOfType(QueryRejectedException.class, () -> admission.admit("10.0.0.1"));
        assertThat(refused.reason()).isEqualTo(ApiError.RATE_LIMITED);
        assertThat(refused.getMessage()).isEqualTo("tenant 10.0.0.1 is over its query rate");
        admission.admit("10.0.0.2").close();
    }

    @Test
    void capsQueriesInProgressPerTenantAndFreesTheSlotWhenDone() {
        Admission admission = new Admission(TenantLimits.DEFAULT, 2);
        Admission.Ticket first = admission.admit("10.0.0.1");
        Admission.Ticket second = admission.admit("10.0.0.1");
        assertThat(catchThrowableOfType(QueryRejectedException.class, () -> admission.admit("10.0.0.1"))
                        .getMessage())
                .isEqualTo("tenant 10.0.0.1 already has 2 queries in progress");
        admission.admit("10.0.0.2").close();
        first.close();
        admission.admit("10.0.0.1").close();
        // Released at the deadline's 503 and again when the evaluation ends: one slot freed, not two.
        first.close();
        Admission.Ticket third = admission.admit("10.0.0.1");
        assertThat(catchThrowableOfType(QueryRejectedException.class, () -> admission.admit("10.0.0.1")))
                .isNotNull();
        third.close();
        second.close();
    }

    @Test
    void theCapHoldsWithManyThreadsAdmittingAndReleasingAtOnce() throws Exception {
        int cap = 2;
        Admission admission = new Admission(new TenantLimits(65_536, 1000, 100, 10_000, 1000, 1e12, 1_000_000), cap);
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger mostHeld = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 50_000; i++) {
                        Admission.Ticket ticket;
                        try {
                            ticket = admission.admit("10.0.0.1");
                        } catch (QueryRejectedException full) {
                            continue;
                        }
                        mostHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
                        holding.decrementAndGet();
                        ticket.close();
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(mostHeld.get()).as("tickets held at once").isLessThanOrEqualTo(cap);
        admission.admit("10.0.0.1").close();
    }
}
