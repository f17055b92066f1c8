package org.cloudtalk.lang.ast;

/** What a value measures. Plain numbers ({@link #NONE}) fit any attribute. */
public enum Dimension {
    NONE("a plain number"),
    BYTES("bytes"),
    RATE("a rate (bytes/s)"),
    TIME("a time (s)"),
    /** The result of arithmetic with no unit the language has, e.g. bytes * bytes: an error, reported once. */
    UNKNOWN("a value of unknown dimension");

    private final String description;

    Dimension(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
