package org.cloudtalk.server.deadline;

/** Work stopped because its query's {@link Deadline} passed; the query is answered 503. */
public final class DeadlineExceededException extends RuntimeException {
    public DeadlineExceededException() {
        // No stack trace: this is flow control on a hot path, thrown once per timed-out query and never logged.
        super("the deadline passed", null, false, false);
    }
}
