package org.cloudtalk.testbed.experiment;

import static java.util.Objects.requireNonNull;

/** An outcome an experiment promises, and whether this run kept it. */
public record Check(String name, boolean passed, String detail) {
    public Check {
        requireNonNull(name, "name is null");
        requireNonNull(detail, "detail is null");
    }
}
