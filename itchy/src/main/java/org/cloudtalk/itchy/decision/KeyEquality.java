package org.cloudtalk.itchy.decision;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.ReflectionUtils;
import org.cloudtalk.itchy.ItchyException;

/**
 * Whether the job reduces exactly the keys Itchy keeps apart. Itchy stores and finds a key's values, offsets and
 * result by the key's bytes; a grouping comparator (a secondary sort) reduces several keys together, and a sort
 * comparator that finds two different keys equal does the same: an increment would then miss the group's base values
 * and leave its earlier results standing. The grouping comparator is refused outright; the sort comparator (the job's,
 * or the key class's own) is checked on the sample's keys.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class KeyEquality {
    /** Comparators that make the reducer, or the combiner (whose output MO stores), take several keys as one. */
    private static final List<String> GROUPING_KEYS =
            List.of(MRJobConfig.GROUP_COMPARATOR_CLASS, MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS);

    private KeyEquality() {}

    /** @return why the job groups keys Itchy keeps apart, or empty where the sample shows none */
    public static Optional<String> problem(Configuration conf, Class<?> mapKey, List<byte[]> sampledKeys) {
        for (String key : GROUPING_KEYS) {
            String grouping = conf.get(key);
            if (grouping != null && !grouping.isBlank()) {
                return Optional.of("the job groups keys with " + grouping.trim() + " (" + key + ", a secondary sort),"
                        + " and Itchy keeps each key's values and result apart by its bytes");
            }
        }
        try {
            return sortProblem(conf, mapKey, sampledKeys);
        } catch (RuntimeException e) { // a comparator class that cannot be loaded, or one that breaks its contract
            throw new ItchyException("the job's sort comparator failed on the map sample's keys: " + e);
        }
    }

    private static Optional<String> sortProblem(Configuration conf, Class<?> mapKey, List<byte[]> sampledKeys) {
        Class<? extends RawComparator> sortClass = conf.getClass(MRJobConfig.KEY_COMPARATOR, null, RawComparator.class);
        if (sortClass == null && !WritableComparable.class.isAssignableFrom(mapKey)) {
            return Optional.empty(); // Hadoop finds no comparator for such a key either, and says so
        }
        RawComparator sort = sortClass != null
                ? ReflectionUtils.newInstance(sortClass, conf)
                : WritableComparator.get(mapKey.asSubclass(WritableComparable.class), conf);
        List<byte[]> keys = new ArrayList<>(sampledKeys);
        keys.sort((a, b) -> sort.compare(a, 0, a.length, b, 0, b.length));
        for (int i = 1; i < keys.size(); i++) {
            byte[] previous = keys.get(i - 1);
            byte[] key = keys.get(i);
            if (sort.compare(previous, 0, previous.length, key, 0, key.length) == 0) {
                return Optional.of("the sort comparator (" + sort.getClass().getName() + ") finds two different"
                        + " keys of the sample equal, so the job reduces them together, and Itchy keeps each key's"
                        + " values and result apart by its bytes");
            }
        }
        return Optional.empty();
    }
}
