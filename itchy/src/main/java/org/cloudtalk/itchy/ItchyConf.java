package org.cloudtalk.itchy;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.technique.TaskKeys;

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
    /**
     * About how many base records one map task of a QMC increment re-reads (default 100000): the relevant records of
     * several base files go to one task, as many tasks as this needs, so that a small increment does not pay a task
     * per base file.
     */
    public static final String TASK_RECORDS = "itchy.qmc.task.records";
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

    /** More configuration keys (comma-separated) whose values belong to the job's identity, its signature. */
    public static final String SIGNATURE_KEYS = "itchy.signature.keys";

    private static final Set<String> KEYS = Set.of(
            MODE,
            MERGE_CLASS,
            QMC_THRESHOLD,
            TABLE,
            CHUNK_BYTES,
            LOOKUP_THREADS,
            TASK_RECORDS,
            SAMPLE_RECORDS,
            BULK_SPILL_BYTES,
            MO_TOUCHED_KEYS_MAX,
            SIGNATURE_KEYS);
    /** A threshold as written in a file or on a command line: a plain decimal, not Java's 1e3, 0x10 or 5d. */
    private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?|\\.[0-9]+");

    /**
     * Checks the user's settings in the driver, before anything runs: a task would otherwise fail on a bad number
     * with a bare {@code NumberFormatException}, and a bad mode would surface as an internal error.
     *
     * @throws ItchyException {@code Invalid value V for K: reason}
     */
    public static void validate(Configuration conf) {
        for (Map.Entry<String, String> entry : conf) {
            String key = entry.getKey();
            if (key.startsWith("itchy.")
                    && !KEYS.contains(key)
                    && TaskKeys.PREFIXES.stream().noneMatch(key::startsWith)) {
                // A misspelt key would otherwise be ignored in silence, and the run use the default.
                throw new ItchyException(invalid(
                        entry.getValue(), key, "unknown key (known: " + String.join(", ", new TreeSet<>(KEYS)) + ")"));
            }
        }
        String table = conf.getTrimmed(TABLE);
        if (table != null) {
            try {
                TableName.isLegalFullyQualifiedTableName(Bytes.toBytes(table));
            } catch (IllegalArgumentException e) {
                throw new ItchyException(invalid(table, TABLE, "not an HBase table name (" + e.getMessage() + ")"));
            }
            if (Bytes.toBytes(table).length > ItchyStore.MAX_TABLE_NAME_BYTES) {
                throw new ItchyException(invalid(
                        table,
                        TABLE,
                        "longer than " + ItchyStore.MAX_TABLE_NAME_BYTES + " bytes (every row keeps room for the"
                                + " table's name, which HBase's client puts before it to find the row's region)"));
            }
        }
        String mode = conf.get(MODE);
        if (mode != null) {
            ItchyMode.parse(mode);
        }
        // Read with getInt where they are used: a larger number would fail there, not here.
        positive(conf, SAMPLE_RECORDS, Integer.MAX_VALUE);
        positive(conf, LOOKUP_THREADS, Integer.MAX_VALUE);
        positive(conf, TASK_RECORDS, Integer.MAX_VALUE);
        positive(conf, CHUNK_BYTES, Integer.MAX_VALUE);
        positive(conf, MO_TOUCHED_KEYS_MAX, Integer.MAX_VALUE);
        positive(conf, BULK_SPILL_BYTES, Long.MAX_VALUE);
        userClass(conf, MERGE_CLASS, MergeFunction.class);
        String threshold = conf.getTrimmed(QMC_THRESHOLD);
        if (threshold != null) {
            if (!PLAIN_DECIMAL.matcher(threshold).matches()) {
                throw new ItchyException(
                        invalid(threshold, QMC_THRESHOLD, "must be a plain decimal number of at least 0"));
            }
        }
    }

    /** A whole number from 1 to {@code max}, if set. */
    static void positive(Configuration conf, String key, long max) {
        String value = conf.getTrimmed(key);
        if (value == null) {
            return;
        }
        String reason = max == Integer.MAX_VALUE
                ? "must be a whole number from 1 to " + Integer.MAX_VALUE
                : "must be a whole number above 0";
        try {
            long number = Long.parseLong(value);
            if (number <= 0 || number > max) {
                throw new ItchyException(invalid(value, key, reason));
            }
        } catch (NumberFormatException e) {
            throw new ItchyException(invalid(value, key, reason), e);
        }
    }

    /**
     * A class named by a key, if set, is on the classpath and of the given type. Checked here because Hadoop's
     * {@code Configuration.getClass} reports neither in a way that names the key (a bare RuntimeException).
     */
    static void userClass(Configuration conf, String key, Class<?> type) {
        String name = conf.getTrimmed(key);
        if (name == null) {
            return;
        }
        Class<?> loaded;
        try {
            loaded = conf.getClassByName(name);
        } catch (ClassNotFoundException e) {
            throw new ItchyException(invalid(name, key, "no such class on the classpath"), e);
        }
        if (!type.isAssignableFrom(loaded)) {
            throw new ItchyException(invalid(name, key, "not a " + type.getName()));
        }
    }

    private static String invalid(String value, String key, String reason) {
        return "Invalid value " + value + " for " + key + ": " + reason;
    }

    private ItchyConf() {}
}
