package org.cloudtalk.hadoop.yarn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.MultiNodeLookupPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.ResourceUsageMultiNodeLookupPolicy;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;

/**
 * What ordering nodes costs the CapacityScheduler per container: {@code getPreferredNodeIterator} and the first
 * {@value #VISITED} nodes of its order (the scheduler stops at the first that fits), with the stock
 * {@code ResourceUsageMultiNodeLookupPolicy} and with {@link CloudTalkNodeLookupPolicy} after a refresh that a real
 * CloudTalk server answered (every host idle), for partitions of several sizes. The refresh itself runs once per
 * sorting interval on the sorter thread and is not timed.
 *
 * <p>Usage: {@code NodeOrderBench ROUNDS CALLS_PER_ROUND CSV NODES...}; one CSV row per size, policy and round.
 */
public final class NodeOrderBench {
    private static final int VISITED = 10;
    private static final String PARTITION = "";

    private NodeOrderBench() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        Path csv = Path.of(args[2]);
        Files.createDirectories(csv.toAbsolutePath().getParent());
        Files.writeString(csv, "nodes,policy,round,calls,ns_per_call\n", StandardCharsets.UTF_8);
        for (int a = 3; a < args.length; a++) {
            int size = Integer.parseInt(args[a]);
            List<String> hosts = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                hosts.add("10.7." + (i / 250) + "." + (1 + i % 250));
            }
            List<CloudTalkNodeLookupPolicyTest.Node> nodes = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                nodes.add(new CloudTalkNodeLookupPolicyTest.Node(hosts.get(i), 8041, (i % 7) * 512L));
            }
            try (ControlledCloudTalk cloudTalk = ControlledCloudTalk.start(hosts)) {
                Configuration conf = new Configuration(false);
                conf.set(HintSettings.SERVER_URI, cloudTalk.uri());
                conf.setLong(HintSettings.DEADLINE_MS, 10_000);
                CloudTalkNodeLookupPolicy<CloudTalkNodeLookupPolicyTest.Node> cloudTalkPolicy =
                        new CloudTalkNodeLookupPolicy<>(conf);
                cloudTalkPolicy.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
                if (cloudTalkPolicy.metrics().answersUsed() == 0) {
                    StringBuilder causes = new StringBuilder();
                    for (Fallback cause : Fallback.values()) {
                        causes.append(' ')
                                .append(cause)
                                .append('=')
                                .append(cloudTalkPolicy.metrics().fallbacks(cause));
                    }
                    throw new IllegalStateException("the CloudTalk server did not answer the refresh:" + causes);
                }
                ResourceUsageMultiNodeLookupPolicy<CloudTalkNodeLookupPolicyTest.Node> stock =
                        new ResourceUsageMultiNodeLookupPolicy<>();
                stock.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
                for (int round = 1; round <= rounds; round++) {
                    for (var policy : List.of(stock, cloudTalkPolicy)) {
                        String name = policy == stock ? "stock" : "cloudtalk";
                        double nanos = time(policy, nodes, calls);
                        String row = String.format(Locale.ROOT, "%d,%s,%d,%d,%.1f", size, name, round, calls, nanos);
                        System.out.println(row);
                        Files.writeString(csv, row + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                    }
                }
            }
        }
        System.exit(0);
    }

    /** Median ns per call over five batches of {@code calls}, after as many calls to warm up. */
    private static <N extends CloudTalkNodeLookupPolicyTest.Node> double time(
            MultiNodeLookupPolicy<N> policy, List<N> nodes, int calls) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += visit(policy, nodes);
        }
        long[] batches = new long[5];
        for (int b = 0; b < batches.length; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += visit(policy, nodes);
            }
            batches[b] = System.nanoTime() - start;
        }
        if (sink == 42) {
            System.err.println(); // keeps the visits from being optimised away
        }
        Arrays.sort(batches);
        return batches[batches.length / 2] / (double) calls;
    }

    private static <N extends CloudTalkNodeLookupPolicyTest.Node> long visit(
            MultiNodeLookupPolicy<N> policy, List<N> nodes) {
        Iterator<N> order = policy.getPreferredNodeIterator(nodes, PARTITION);
        long seen = 0;
        for (int i = 0; i < VISITED && order.hasNext(); i++) {
            seen += order.next().getNodeID().getPort();
        }
        return seen;
    }
}
