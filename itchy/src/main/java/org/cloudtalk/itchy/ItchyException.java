package org.cloudtalk.itchy;

/** A job Itchy cannot run as asked; the message says why and what to do. */
public final class ItchyException extends RuntimeException {
    public ItchyException(String message) {
        super(message);
    }

    public ItchyException(String message, Throwable cause) {
        super(message, cause);
    }
}
