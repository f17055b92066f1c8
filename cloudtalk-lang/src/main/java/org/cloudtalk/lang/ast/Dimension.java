package org.cloudtalk.lang.ast;

/** What a value measures. Plain numbers ({@link #NONE}) fit any attribute. */
public enum Dimension {
    NONE("a plain number"),
    BYTES("bytes"),
    RATE("a rate (bytes/s)"),
    TIME("a time (s)"),
    /** The result of arithmetic whose dimension the validator does not track, e.g. bytes * bytes. */
    UNKNOWN("a value of unknown dimension");

    private final String description;

    Dimension(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
