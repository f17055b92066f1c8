package org.cloudtalk.testbed;

/** A testbed operation that could not be done; the message says what and why, for the console. */
public final class TestbedException extends RuntimeException {
    public TestbedException(String message) {
        super(message);
    }

    public TestbedException(String message, Throwable cause) {
        super(message, cause);
    }
}
