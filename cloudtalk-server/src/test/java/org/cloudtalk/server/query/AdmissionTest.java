package org.cloudtalk.server.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
        second.close();
    }
}
