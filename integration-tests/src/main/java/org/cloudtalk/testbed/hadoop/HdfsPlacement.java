package org.cloudtalk.testbed.hadoop;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cloudtalk.testbed.TestbedException;

/**
 * Who chooses where HDFS writes blocks and which replica a reader gets: stock Hadoop 3.4.3 at its defaults, stock at
 * its best (issue 14), or CloudTalk's NameNode plugins.
 */
public enum HdfsPlacement {
    /** Hadoop's defaults; {@code dfs.namenode.redundancy.considerLoad} is on by default (xceiver counts). */
    STOCK_DEFAULTS("stock-defaults"),
    /**
     * Stock at its best: considerLoad for reads too, DataNode peer statistics, and slow-node exclusion from writes,
     * with outlier reports every 10 s instead of every 30 minutes so that it can react within a run at all.
     */
    STOCK_BEST("stock-best"),
    /** {@code CloudTalkBlockPlacementPolicy} for writes and {@code CloudTalkNetworkTopology} for reads. */
    CLOUDTALK("cloudtalk");

    /** The placement policy and read topology an operator installs (docs/hadoop-plugins.md). */
    static final String POLICY = "org.cloudtalk.hadoop.hdfs.write.CloudTalkBlockPlacementPolicy";

    static final String TOPOLOGY = "org.cloudtalk.hadoop.hdfs.read.CloudTalkNetworkTopology";

    private final String label;

    HdfsPlacement(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static HdfsPlacement parse(String label) {
        return Arrays.stream(values())
                .filter(p -> p.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new TestbedException(
                        "Invalid value " + label + " for placement: one of stock-defaults, stock-best, cloudtalk"));
    }

    /** The hdfs-site.xml settings this placement adds, for every daemon (peer statistics are set on both sides). */
    Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        switch (this) {
            case STOCK_DEFAULTS -> settings.put("dfs.namenode.redundancy.considerLoad", "true");
            case STOCK_BEST -> {
                settings.put("dfs.namenode.redundancy.considerLoad", "true");
                settings.put("dfs.namenode.read.considerLoad", "true");
                settings.put("dfs.datanode.peer.stats.enabled", "true");
                settings.put("dfs.namenode.block-placement-policy.exclude-slow-nodes.enabled", "true");
                settings.put("dfs.datanode.outliers.report.interval", "10s");
            }
            case CLOUDTALK -> {
                settings.put("dfs.block.replicator.classname", POLICY);
                settings.put("dfs.net.topology.impl", TOPOLOGY);
            }
        }
        return settings;
    }
}
