package org.cloudtalk.testbed.experiment;

import static java.util.Objects.requireNonNull;

/** One raw result of a run: {@code metric} of {@code subject} (a host, a link, a query) was {@code value}. */
public record Measurement(String metric, String subject, double value) {
    public Measurement {
        requireNonNull(metric, "metric is null");
        requireNonNull(subject, "subject is null");
    }
}
