package org.cloudtalk.hadoop.hdfs;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.hadoop.PluginKeys;
import org.cloudtalk.hadoop.hint.HintSettings;

/** The HDFS plugins' own keys (docs/hadoop-plugins.md), next to the shared {@link HintSettings}. */
public record HdfsHintSettings(
        HintSettings hints,
        boolean writeEnabled,
        boolean readEnabled,
        int maxCandidates,
        Endpoints.Mode endpoints,
        long readBytes,
        int blocksPerQuery,
        Duration answerReuse,
        EvaluatorName writeEvaluator) {
    public static final String WRITE_ENABLED = "cloudtalk.hdfs.write.enabled";
    public static final String READ_ENABLED = "cloudtalk.hdfs.read.enabled";
    public static final String MAX_CANDIDATES = "cloudtalk.hdfs.candidates.max";
    public static final String ENDPOINT = "cloudtalk.hdfs.endpoint";
    public static final String READ_BYTES = "cloudtalk.hdfs.read.bytes";
    public static final String BLOCKS_PER_QUERY = "cloudtalk.hdfs.write.blocks.per.query";
    public static final String ANSWER_REUSE_MS = "cloudtalk.hdfs.write.answer.reuse.ms";
    public static final String WRITE_EVALUATOR = "cloudtalk.hdfs.write.evaluator";

    public HdfsHintSettings {
        requireNonNull(hints, "hints is null");
        requireNonNull(endpoints, "endpoints is null");
        requireNonNull(answerReuse, "answerReuse is null");
        requireNonNull(writeEvaluator, "writeEvaluator is null");
    }

    /**
     * The write path's settings: the shared ones with its own evaluator. The NameNode asks once per block (or per few
     * blocks), and on the write shape the heuristic is near the optimum at a fraction of refined's cost per query
     * (docs/hadoop-plugins.md, Decisions).
     */
    public HintSettings writeHints() {
        return hints.withEvaluator(writeEvaluator);
    }

    public static HdfsHintSettings from(Configuration conf) {
        PluginKeys.refuseUnknown(conf);
        String mode = HintSettings.text(conf, ENDPOINT, "ip");
        Endpoints.Mode endpoints =
                switch (mode.toLowerCase(Locale.ROOT)) {
                    case "ip" -> Endpoints.Mode.IP;
                    case "hostname" -> Endpoints.Mode.HOSTNAME;
                    default -> throw HintSettings.invalid(mode, ENDPOINT, "must be ip or hostname");
                };
        return new HdfsHintSettings(
                HintSettings.from(conf),
                HintSettings.flag(conf, WRITE_ENABLED, true),
                HintSettings.flag(conf, READ_ENABLED, true),
                (int) HintSettings.number(conf, MAX_CANDIDATES, 30, 2, 10_000),
                endpoints,
                HintSettings.bytes(conf, READ_BYTES, blockSize(conf), 1, Long.MAX_VALUE / 2),
                (int) HintSettings.number(conf, BLOCKS_PER_QUERY, 4, 1, 64),
                Duration.ofMillis(HintSettings.number(conf, ANSWER_REUSE_MS, 100, 1, 60_000)),
                HintSettings.evaluator(conf, WRITE_EVALUATOR, "heuristic"));
    }

    /**
     * The read query's default size: one block as configured, else HDFS's default. {@code dfs.blocksize} is HDFS's
     * key: a value that is not a positive size is for HDFS to refuse (its NameNode parses it too), never a failure of
     * the plugin's own.
     */
    private static long blockSize(Configuration conf) {
        String value = conf.getTrimmed(DFSConfigKeys.DFS_BLOCK_SIZE_KEY);
        if (value == null || value.isEmpty()) {
            return DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT;
        }
        long size;
        try {
            size = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
        } catch (IllegalArgumentException e) { // not a number, or more than a long holds
            return DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT;
        }
        return size > 0 ? Math.min(size, Long.MAX_VALUE / 2) : DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT;
    }
}
