package org.cloudtalk.hadoop.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.ResourceUsageMultiNodeLookupPolicy;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The policy's order over scheduler nodes (policies with the same server settings share one client, so its counters
 * are compared before and after) without a cluster: nodes whose allocation the test sets, and a real
 * CloudTalk server whose hosts' load it sets. {@code MapReducePlacementTest} shows the order at work in a scheduler.
 */
class CloudTalkNodeLookupPolicyTest {
    private static final String PARTITION = "";
    private static final List<String> HOSTS =
            List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7");

    private static ControlledCloudTalk cloudTalk;

    @BeforeAll
    static void start() throws Exception {
        cloudTalk = ControlledCloudTalk.start(HOSTS);
    }

    @AfterAll
    static void stop() {
        if (cloudTalk != null) {
            cloudTalk.close();
        }
    }

    @BeforeEach
    void reset() throws Exception {
        cloudTalk.restart(HOSTS);
    }

    @Test
    void thePlacedHostsComeFirstLeastAllocatedFirst() {
        Set<String> idle = loadTheFirstThree();
        List<Node> nodes = nodes(0, 0, 0, 1024, 0, 512);
        CloudTalkNodeLookupPolicy<Node> policy = new CloudTalkNodeLookupPolicy<>(conf(0));
        long used = policy.metrics().answersUsed();

        policy.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);

        assertThat(hosts(policy)).startsWith("127.0.0.6", "127.0.0.7", "127.0.0.5");
        assertThat(policy.metrics().answersUsed()).isEqualTo(used + 1);

        // Allocations are read at every call: the next container goes to the placed host with the least.
        nodes.get(4).allocated = Resource.newInstance(2048, 2);
        assertThat(hosts(policy)).startsWith("127.0.0.7", "127.0.0.5", "127.0.0.6");
    }

    @Test
    void withoutAnAnswerTheOrderIsTheStockPolicys() {
        cloudTalk.stopServer();
        List<Node> nodes = nodes(512, 0, 2048, 1024, 0, 512);
        CloudTalkNodeLookupPolicy<Node> policy = new CloudTalkNodeLookupPolicy<>(conf(0));
        ResourceUsageMultiNodeLookupPolicy<Node> stock = new ResourceUsageMultiNodeLookupPolicy<>();
        long used = policy.metrics().answersUsed();

        policy.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
        stock.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);

        assertThat(hosts(policy)).containsExactlyElementsOf(hosts(stock.getNodesPerPartition(PARTITION)));
        assertThat(policy.metrics().answersUsed()).isEqualTo(used);
    }

    @Test
    void anAnswerOrdersTheNodesThroughAnOutageForTheStaleWindowOnly() {
        Set<String> idle = loadTheFirstThree();
        List<Node> nodes = nodes(0, 0, 0, 0, 0, 0);
        long[] now = {0};
        Configuration keeps = conf(0);
        keeps.setLong(YarnHintSettings.STALE_MS, 10_000);
        Configuration forgets = conf(0);
        forgets.setLong(YarnHintSettings.STALE_MS, 0);
        CloudTalkNodeLookupPolicy<Node> keeping = new CloudTalkNodeLookupPolicy<>(keeps, () -> now[0]);
        CloudTalkNodeLookupPolicy<Node> forgetting = new CloudTalkNodeLookupPolicy<>(forgets, () -> now[0]);
        keeping.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
        forgetting.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
        List<String> answered = hosts(keeping);
        assertThat(answered.subList(0, 3)).containsExactlyInAnyOrderElementsOf(idle);
        assertThat(hosts(forgetting).subList(0, 3)).containsExactlyInAnyOrderElementsOf(idle);
        HintMetrics metrics = keeping.metrics(); // the two policies share one client, and so its counters
        long stale = metrics.staleAnswersUsed();
        long failed = metrics.fallbacks(Fallback.UNAVAILABLE);
        cloudTalk.stopServer();

        now[0] = TimeUnit.MILLISECONDS.toNanos(9_999);
        keeping.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
        forgetting.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);

        assertThat(metrics.fallbacks(Fallback.UNAVAILABLE)).isEqualTo(failed + 2);
        assertThat(metrics.staleAnswersUsed()).isEqualTo(stale + 1);
        assertThat(hosts(keeping)).isEqualTo(answered);
        assertThat(hosts(forgetting))
                .as("the stock order: all equally allocated, by name")
                .isEqualTo(HOSTS);

        // The window runs from the answer, not from the last refresh it ordered.
        now[0] = TimeUnit.MILLISECONDS.toNanos(10_001);
        keeping.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);

        assertThat(metrics.fallbacks(Fallback.UNAVAILABLE)).isEqualTo(failed + 3);
        assertThat(metrics.staleAnswersUsed()).isEqualTo(stale + 1);
        assertThat(hosts(keeping)).isEqualTo(HOSTS);
    }

    @Test
    void theServerIsAskedAtMostOncePerRefreshPeriodForTheSameHosts() {
        List<Node> nodes = nodes(0, 0, 0, 0, 0, 0);
        CloudTalkNodeLookupPolicy<Node> policy = new CloudTalkNodeLookupPolicy<>(conf(3_600_000));
        long queries = policy.metrics().queries();

        for (int i = 0; i < 5; i++) {
            policy.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);
        }
        assertThat(policy.metrics().queries()).isEqualTo(queries + 1);

        policy.addAndRefreshNodesSet(List.copyOf(nodes.subList(0, 5)), PARTITION);
        assertThat(policy.metrics().queries()).as("a node left: asked again").isEqualTo(queries + 2);
        assertThat(hosts(policy)).hasSize(5);
    }

    @Test
    void aLargePartitionIsAskedAboutASampleWithinTheServersLimits() throws Exception {
        // 50 placed hosts over 300 candidates would be 15,000 candidate values: over the server's default 10,000.
        List<String> many = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add("10.7." + (i / 250) + "." + (1 + i % 250));
            nodes.add(new Node(many.get(i), 8041, 0));
        }
        try (ControlledCloudTalk server = ControlledCloudTalk.start(many)) {
            Configuration conf = conf(0);
            conf.set(HintSettings.SERVER_URI, server.uri());
            CloudTalkNodeLookupPolicy<Node> policy = new CloudTalkNodeLookupPolicy<>(conf);
            long used = policy.metrics().answersUsed();
            long refused = policy.metrics().fallbacks(Fallback.REFUSED);

            policy.addAndRefreshNodesSet(List.copyOf(nodes), PARTITION);

            assertThat(policy.metrics().fallbacks(Fallback.REFUSED)).isEqualTo(refused);
            assertThat(policy.metrics().answersUsed()).isEqualTo(used + 1);
            assertThat(hosts(policy)).hasSize(300).doesNotHaveDuplicates();
        }
    }

    @Test
    void badKeysSayWhichAndWhy() {
        Configuration conf = conf(0);
        conf.set(YarnHintSettings.MAX_PREFERRED_HOSTS, "500");
        assertThatThrownBy(() -> new CloudTalkNodeLookupPolicy<Node>(conf))
                .hasMessage("Invalid value 500 for cloudtalk.yarn.reduce.hosts.max: must be between 1 and 100");
    }

    /** A scheduler node whose allocation the test sets. */
    static final class Node extends FiCaSchedulerNode {
        Resource allocated;

        Node(String host, int port, long allocatedMemory) {
            super(MockNodes.newNodeInfo(0, Resource.newInstance(4096, 4), 0, host, port), false);
            allocated = Resource.newInstance(allocatedMemory, (int) (allocatedMemory / 512));
        }

        @Override
        public synchronized Resource getAllocatedResource() {
            return allocated;
        }
    }

    /** Makes the first three hosts' receive links busy; returns the other, idle, hosts. */
    private static Set<String> loadTheFirstThree() {
        Set<String> busy = Set.copyOf(HOSTS.subList(0, 3));
        Set<String> idle = new TreeSet<>(HOSTS);
        idle.removeAll(busy);
        cloudTalk.load(idle, busy);
        return idle;
    }

    private static List<Node> nodes(long... allocatedMemory) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < allocatedMemory.length; i++) {
            nodes.add(new Node(HOSTS.get(i), 8041, allocatedMemory[i]));
        }
        return nodes;
    }

    private static Configuration conf(long refreshMs) {
        Configuration conf = new Configuration(false);
        conf.set(HintSettings.SERVER_URI, cloudTalk.uri());
        conf.setLong(HintSettings.DEADLINE_MS, 2000);
        conf.setLong(HintSettings.BACKOFF_MS, 0);
        conf.setLong(YarnHintSettings.REFRESH_MS, refreshMs);
        return conf;
    }

    private static List<String> hosts(CloudTalkNodeLookupPolicy<Node> policy) {
        return hosts(policy.getNodesPerPartition(PARTITION));
    }

    private static List<String> hosts(Iterable<Node> nodes) {
        List<String> hosts = new ArrayList<>();
        nodes.forEach(node -> hosts.add(node.getNodeID().getHost()));
        return hosts;
    }
}
