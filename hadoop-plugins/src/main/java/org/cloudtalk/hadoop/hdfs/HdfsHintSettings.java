package org.cloudtalk.hadoop.hdfs;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.cloudtalk.hadoop.hint.HintSettings;

/** The HDFS plugins' own keys (docs/hadoop-plugins.md), next to the shared {@link HintSettings}. */
public record HdfsHintSettings(
        HintSettings hints,
        boolean writeEnabled,
        boolean readEnabled,
        int maxCandidates,
        Endpoints.Mode endpoints,
        long readBytes) {
    public static final String WRITE_ENABLED = "cloudtalk.hdfs.write.enabled";
    public static final String READ_ENABLED = "cloudtalk.hdfs.read.enabled";
    public static final String MAX_CANDIDATES = "cloudtalk.hdfs.candidates.max";
    public static final String ENDPOINT = "cloudtalk.hdfs.endpoint";
    public static final String READ_BYTES = "cloudtalk.hdfs.read.bytes";

    public HdfsHintSettings {
        requireNonNull(hints, "hints is null");
        requireNonNull(endpoints, "endpoints is null");
    }

    public static HdfsHintSettings from(Configuration conf) {
        String mode = conf.getTrimmed(ENDPOINT, "ip");
        Endpoints.Mode endpoints =
                switch (mode.toLowerCase(Locale.ROOT)) {
                    case "ip" -> Endpoints.Mode.IP;
                    case "hostname" -> Endpoints.Mode.HOSTNAME;
                    default -> throw HintSettings.invalid(mode, ENDPOINT, "must be ip or hostname");
                };
        long blockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
        return new HdfsHintSettings(
                HintSettings.from(conf),
                HintSettings.flag(conf, WRITE_ENABLED, true),
                HintSettings.flag(conf, READ_ENABLED, true),
                (int) HintSettings.number(conf, MAX_CANDIDATES, 30, 2, 10_000),
                endpoints,
                HintSettings.number(conf, READ_BYTES, blockSize, 1, Long.MAX_VALUE / 2));
    }
}
