package org.cloudtalk.itchy;

/** Job counters Itchy adds; the decision model's inputs and what an incremental run touched. */
public enum ItchyCounters {
    MAP_INPUT_RECORDS,
    /**
     * Bytes of the input records handed to the user's mapper (line lengths plus newlines). Not "MAP_INPUT_BYTES":
     * Hadoop drops a counter of that legacy framework name from the job's counters.
     */
    INPUT_BYTES_MAPPED,
    MAP_OUTPUT_RECORDS,
    /** Serialized bytes of the map output values that carry offsets through the shuffle (QMC). */
    MAP_OUTPUT_VALUE_BYTES,
    RECORDS_WITH_MULTIPLE_KEYS,
    POST_FILTERED,
    BASE_RECORDS_REREAD,
    STORED_VALUES_READ,
    /** MO: keys whose stored values were not read ahead but with a Get when the reducer reached them. */
    STORED_ROWS_READ_DIRECTLY,
    BASE_OUTPUT_RECORDS_MERGED,
    HBASE_ROWS_WRITTEN
}
