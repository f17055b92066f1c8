package org.cloudtalk.server.eval.packet;

/**
 * The packet simulator helper is not there (ns-3 was not installed when the server was built) or does not work.
 */
public final class SimulatorUnavailableException extends RuntimeException {
    public SimulatorUnavailableException(String message) {
        super(message);
    }
}
