package org.cloudtalk.status.wire;

import static java.util.Objects.requireNonNull;

/** A datagram that is not a valid, authentic message. Cheap: no stack trace, it is control flow on a hot path. */
public final class WireException extends Exception {
    private final DropReason reason;

    public WireException(DropReason reason, String message) {
        super(message, null, false, false);
        this.reason = requireNonNull(reason, "reason is null");
    }

    public DropReason reason() {
        return reason;
    }
}
