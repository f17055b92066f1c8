package org.cloudtalk.testbed;

/** A testbed operation that could not be done; the message says what and why, for the console. */
public final class TestbedException extends RuntimeException {
    private final boolean invalidValue;

    public TestbedException(String message) {
        this(message, null, false);
    }

    public TestbedException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private TestbedException(String message, Throwable cause, boolean invalidValue) {
        super(message, cause);
        this.invalidValue = invalidValue;
    }

    /** A value the operator gave (a flag's) that is wrong: {@code Invalid value V for K: reason}. */
    public static TestbedException invalidValue(Object value, String key, String reason) {
        return new TestbedException("Invalid value " + value + " for " + key + ": " + reason, null, true);
    }

    /** Whether the operator gave a wrong value (a usage error), rather than the testbed failing. */
    public boolean isInvalidValue() {
        return invalidValue;
    }
}
