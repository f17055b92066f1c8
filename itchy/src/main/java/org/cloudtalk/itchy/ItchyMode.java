package org.cloudtalk.itchy;

import java.util.Locale;

/** How Itchy keeps a job incremental ({@code itchy.mode}); AUTO lets the decision model choose. */
public enum ItchyMode {
    AUTO,
    /** Query Metadata Checkpoints: offsets of the input records that produced each key; recompute those. */
    QMC,
    /** Map Outputs: the intermediate values of each key; reuse them. */
    MO,
    /** The user's merge function combines the base output with the output of the appended records. */
    MERGE,
    /** No incremental data: a plain MapReduce job. */
    OFF;

    public static ItchyMode parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ItchyException(
                    "Invalid value " + value + " for " + ItchyConf.MODE + ": use auto, qmc, mo, merge or off", e);
        }
    }
}
