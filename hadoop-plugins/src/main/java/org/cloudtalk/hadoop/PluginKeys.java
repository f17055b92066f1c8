package org.cloudtalk.hadoop;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.cloudtalk.hadoop.hdfs.HdfsHintSettings;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.mapreduce.MapHintSettings;
import org.cloudtalk.hadoop.yarn.YarnHintSettings;

/**
 * Every {@code cloudtalk.*} key of the Hadoop plugins. One site file usually configures them all (the NameNode's
 * plugin reads a configuration that also holds the YARN plugin's keys), so each plugin checks against all of them: a
 * misspelt key is refused by name instead of leaving its setting at the default without a word.
 */
public final class PluginKeys {
    private static final String PREFIX = "cloudtalk.";
    private static final Set<String> KNOWN = Set.of(
            HintSettings.SERVER_URI,
            HintSettings.DEADLINE_MS,
            HintSettings.EVALUATOR,
            HintSettings.THREADS,
            HintSettings.BACKOFF_MS,
            HintSettings.LOG_INTERVAL_MS,
            HdfsHintSettings.WRITE_ENABLED,
            HdfsHintSettings.READ_ENABLED,
            HdfsHintSettings.MAX_CANDIDATES,
            HdfsHintSettings.ENDPOINT,
            HdfsHintSettings.READ_BYTES,
            HdfsHintSettings.BLOCKS_PER_QUERY,
            HdfsHintSettings.ANSWER_REUSE_MS,
            HdfsHintSettings.WRITE_EVALUATOR,
            YarnHintSettings.MAX_PREFERRED_HOSTS,
            YarnHintSettings.MAX_CANDIDATES,
            YarnHintSettings.REFRESH_MS,
            YarnHintSettings.REDUCE_BYTES,
            YarnHintSettings.STALE_MS,
            MapHintSettings.INNER_FORMAT,
            MapHintSettings.SLOW_FRACTION);

    private PluginKeys() {}

    /** @throws IllegalArgumentException {@code Invalid value V for K: unknown key} for the first unknown key */
    public static void refuseUnknown(Configuration conf) {
        for (Map.Entry<String, String> entry : conf) {
            String key = entry.getKey();
            // In any case: Hadoop's keys are case-sensitive, and CloudTalk.deadline.ms would otherwise be ignored.
            if (key.toLowerCase(Locale.ROOT).startsWith(PREFIX) && !KNOWN.contains(key)) {
                throw HintSettings.invalid(
                        entry.getValue(),
                        key,
                        "unknown key (the Hadoop plugins know " + String.join(", ", new TreeSet<>(KNOWN)) + ")");
            }
        }
    }
}
