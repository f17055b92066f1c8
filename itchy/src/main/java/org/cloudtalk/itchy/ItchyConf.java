package org.cloudtalk.itchy;

import org.apache.hadoop.conf.Configuration;

/** Configuration keys (Hadoop {@code Configuration}) that select and tune Itchy. */
public final class ItchyConf {
    /** auto | qmc | mo | merge | off (default auto). */
    public static final String MODE = "itchy.mode";
    /** A {@link MergeFunction} class; makes the job a Merge-class job. {@code ItchyJob.setMerge} sets it. */
    public static final String MERGE_CLASS = "itchy.merge.class";
    /** Algorithm 2's threshold on avgValSize / avgRuntime, bytes per millisecond (default 1000). */
    public static final String QMC_THRESHOLD = "itchy.qmc.threshold";
    /** HBase table for all incremental data of a deployment (default itchy). */
    public static final String TABLE = "itchy.hbase.table";
    /** Largest HBase cell Itchy writes for one key's values or offsets, in bytes (default 4 MiB); more go in chunks. */
    public static final String CHUNK_BYTES = "itchy.chunk.bytes";
    /** How many reads a QMC increment's driver has in flight when it looks up the touched keys' offsets (default 4). */
    public static final String LOOKUP_THREADS = "itchy.qmc.lookup.threads";
    /** How many input records the decision model samples (default 10000). */
    public static final String SAMPLE_RECORDS = "itchy.sample.records";
    /**
     * A task buffers the HBase cells it stores and writes them to an HFile (bulk-loaded after the job) whenever they
     * reach this many bytes of cells (default 64 MiB; about twice that on the heap of the reduce task).
     */
    public static final String BULK_SPILL_BYTES = "itchy.bulk.spill.bytes";

    /**
     * How many distinct keys an MO increment's map task notes for its reducers' read-ahead (default 2000000); beyond
     * it the task stops noting them, and its reducers read the stored values of the rest one by one.
     */
    public static final String MO_TOUCHED_KEYS_MAX = "itchy.mo.touched.keys.max";

    /**
     * Checks the user's settings in the driver, before anything runs: a task would otherwise fail on a bad number
     * with a bare {@code NumberFormatException}, and a bad mode would surface as an internal error.
     *
     * @throws ItchyException {@code Invalid value V for K: reason}
     */
    public static void validate(Configuration conf) {
        String mode = conf.get(MODE);
        if (mode != null) {
            ItchyMode.parse(mode);
        }
        positive(conf, SAMPLE_RECORDS);
        positive(conf, LOOKUP_THREADS);
        positive(conf, CHUNK_BYTES);
        positive(conf, BULK_SPILL_BYTES);
        positive(conf, MO_TOUCHED_KEYS_MAX);
        String threshold = conf.getTrimmed(QMC_THRESHOLD);
        if (threshold != null) {
            try {
                if (!(Double.parseDouble(threshold) >= 0)) {
                    throw new ItchyException(invalid(threshold, QMC_THRESHOLD, "must be a number of at least 0"));
                }
            } catch (NumberFormatException e) {
                throw new ItchyException(invalid(threshold, QMC_THRESHOLD, "must be a number of at least 0"), e);
            }
        }
    }

    private static void positive(Configuration conf, String key) {
        String value = conf.getTrimmed(key);
        if (value == null) {
            return;
        }
        try {
            if (Long.parseLong(value) <= 0) {
                throw new ItchyException(invalid(value, key, "must be a whole number above 0"));
            }
        } catch (NumberFormatException e) {
            throw new ItchyException(invalid(value, key, "must be a whole number above 0"), e);
        }
    }

    private static String invalid(String value, String key, String reason) {
        return "Invalid value " + value + " for " + key + ": " + reason;
    }

    private ItchyConf() {}
}
