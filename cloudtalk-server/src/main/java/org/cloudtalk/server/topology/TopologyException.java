package org.cloudtalk.server.topology;

/** A topology file that is not valid; the message starts with {@code line N:} where a line is at fault. */
public final class TopologyException extends Exception {
    public TopologyException(String message) {
        super(message);
    }
}
