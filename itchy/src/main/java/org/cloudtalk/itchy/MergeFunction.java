package org.cloudtalk.itchy;

/**
 * Combines a key's value in the base output with its value from the appended records, e.g. a sum adds them. Needs a
 * public no-argument constructor. Its presence makes a job a Merge-class job (§5.4.3).
 */
public interface MergeFunction<K, V> {
    V merge(K key, V base, V delta);
}
