package org.cloudtalk.testbed.hadoop;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cloudtalk.testbed.TestbedException;

/**
 * Who orders the nodes YARN's CapacityScheduler places containers on (issue 15): stock Hadoop 3.4.3 at its defaults
 * (a container goes to the node whose heartbeat comes first), stock with its multi-node
 * {@code ResourceUsageMultiNodeLookupPolicy} (least allocated node first), or CloudTalk's
 * {@code CloudTalkNodeLookupPolicy}.
 */
public enum YarnPlacement {
    STOCK_DEFAULTS("stock-defaults"),
    STOCK_MULTI_NODE("stock-multi-node"),
    CLOUDTALK("cloudtalk");

    static final String POLICY = "org.cloudtalk.hadoop.yarn.CloudTalkNodeLookupPolicy";
    static final String STOCK_POLICY =
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.ResourceUsageMultiNodeLookupPolicy";
    private static final String SORTING = "yarn.scheduler.capacity.multi-node-sorting.policy";

    private final String label;

    YarnPlacement(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static YarnPlacement parse(String label) {
        return Arrays.stream(values())
                .filter(p -> p.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new TestbedException("Invalid value " + label
                        + " for placement: one of stock-defaults, stock-multi-node, cloudtalk"));
    }

    /** The capacity-scheduler.xml settings this placement adds (docs/hadoop-plugins.md's install snippet). */
    Map<String, String> schedulerSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        if (this == STOCK_DEFAULTS) {
            return settings;
        }
        settings.put("yarn.scheduler.capacity.multi-node-placement-enabled", "true");
        settings.put(SORTING + ".names", label);
        settings.put(SORTING, label);
        settings.put(SORTING + "." + label + ".class", this == CLOUDTALK ? POLICY : STOCK_POLICY);
        settings.put(SORTING + "." + label + ".sorting-interval.ms", "1000");
        return settings;
    }
}
