package org.cloudtalk.hadoop.yarn;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.cloudtalk.hadoop.PluginKeys;
import org.cloudtalk.hadoop.hint.HintSettings;

/**
 * The ResourceManager plugin's keys (docs/hadoop-plugins.md), next to the shared {@link HintSettings}; read from the
 * ResourceManager's {@code yarn-site.xml}.
 *
 * @param hints the server, deadline (default {@value #DEFAULT_DEADLINE_MS} ms: the query runs on the node sorter's
 *     thread, not while a container waits) and the other shared settings
 * @param maxPreferredHosts the most hosts one reduce query places (the paper's m); the query places half of a
 *     partition's nodes, up to this
 * @param reduceBytes the data each reduce is assumed to receive and write; only its equality across hosts matters
 * @param refresh the shortest time between two queries for the same hosts, whatever the scheduler's sorting interval
 * @param stale how long an answer keeps ordering the nodes when later queries get no usable answer (0: not at all)
 */
public record YarnHintSettings(
        HintSettings hints,
        int maxPreferredHosts,
        int maxCandidates,
        long reduceBytes,
        Duration refresh,
        Duration stale) {
    public static final String MAX_PREFERRED_HOSTS = "cloudtalk.yarn.reduce.hosts.max";
    public static final String MAX_CANDIDATES = "cloudtalk.yarn.candidates.max";
    public static final String REFRESH_MS = "cloudtalk.yarn.refresh.ms";
    public static final String REDUCE_BYTES = "cloudtalk.yarn.reduce.bytes";
    public static final String STALE_MS = "cloudtalk.yarn.stale.ms";
    public static final long DEFAULT_DEADLINE_MS = 200;

    public YarnHintSettings {
        requireNonNull(hints, "hints is null");
        requireNonNull(refresh, "refresh is null");
        requireNonNull(stale, "stale is null");
    }

    public static YarnHintSettings from(Configuration conf) {
        PluginKeys.refuseUnknown(conf);
        return new YarnHintSettings(
                HintSettings.from(conf, DEFAULT_DEADLINE_MS),
                // Two flows per placed host; the server's default limits allow 100 variables and 1000 flows.
                (int) HintSettings.number(conf, MAX_PREFERRED_HOSTS, 50, 1, 100),
                // Variables x candidates must stay within the server's limit on candidate values (10,000 by
                // default): 50 x 100 does, 50 x a 1,000-node partition would be refused.
                (int) HintSettings.number(conf, MAX_CANDIDATES, 100, 2, 10_000),
                HintSettings.number(conf, REDUCE_BYTES, 1L << 30, 1, Long.MAX_VALUE / 4),
                Duration.ofMillis(HintSettings.number(conf, REFRESH_MS, 1000, 0, 3_600_000)),
                // Through a server's restart its last answer is likelier right about which links are busy than an
                // order that knows nothing of them; HDFS too trusts what a DataNode last said for 30 s
                // (dfs.namenode.stale.datanode.interval) (docs/hadoop-plugins.md).
                Duration.ofMillis(HintSettings.number(conf, STALE_MS, 30_000, 0, 3_600_000)));
    }

    /** How many of {@code nodes} candidate hosts the reduce query places. */
    int preferredHosts(int nodes) {
        return Math.min(maxPreferredHosts, (nodes + 1) / 2);
    }
}
