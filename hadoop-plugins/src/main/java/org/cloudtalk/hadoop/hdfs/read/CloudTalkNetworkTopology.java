package org.cloudtalk.hadoop.hdfs.read;

import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.net.Node;
import org.cloudtalk.hadoop.hdfs.Endpoints;
import org.cloudtalk.hadoop.hdfs.HdfsHintSettings;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;

/**
 * The NameNode's network topology with replicas ordered by CloudTalk ({@code dfs.net.topology.impl}). HDFS sorts a
 * block's replicas for a reader by network distance, with stale and decommissioned replicas already moved behind
 * the active ones; within each group of equal distance it shuffles (or, with {@code dfs.namenode.read.considerLoad},
 * orders by load). This class keeps all of that and then orders each equal-distance group by CloudTalk's answer to
 * the §5.3 read query, so the client — which reads the first replica it is given — reads from the replica CloudTalk
 * prefers. Without an answer the group keeps HDFS's own order.
 *
 * <p>Concurrency: the NameNode sorts from many RPC handlers at once; the ranker is immutable after
 * {@link #setConf}, which Hadoop calls once, right after construction.
 */
public class CloudTalkNetworkTopology extends DFSNetworkTopology implements Configurable {
    private Configuration conf;
    private ReadRanker ranker;

    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
        HdfsHintSettings settings = HdfsHintSettings.from(conf);
        if (settings.readEnabled()) {
            HintClient hints = HintClient.shared(
                    "hdfs-read", settings.hints(), "CloudTalkHdfsRead", "CloudTalk replica ordering for reads");
            ranker = new ReadRanker(hints, new Endpoints(settings.endpoints()), settings.readBytes());
        }
    }

    /** This plugin's counters, or empty when {@code cloudtalk.hdfs.read.enabled} is false. */
    public Optional<HintMetrics> metrics() {
        return Optional.ofNullable(ranker).map(ReadRanker::metrics);
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    @Override
    public <T extends Node> void sortByDistance(
            Node reader, T[] nodes, int activeLen, Consumer<List<T>> secondarySort) {
        super.sortByDistance(reader, nodes, activeLen, withPreference(reader, nodes, activeLen, secondarySort));
    }

    @Override
    public <T extends Node> void sortByDistanceUsingNetworkLocation(
            Node reader, T[] nodes, int activeLen, Consumer<List<T>> secondarySort) {
        super.sortByDistanceUsingNetworkLocation(
                reader, nodes, activeLen, withPreference(reader, nodes, activeLen, secondarySort));
    }

    private <T extends Node> Consumer<List<T>> withPreference(
            Node reader, T[] nodes, int activeLen, Consumer<List<T>> secondarySort) {
        if (ranker == null || activeLen < 2) {
            return secondarySort;
        }
        Optional<Comparator<Node>> order =
                ranker.order(reader, Arrays.asList(nodes).subList(0, activeLen));
        if (order.isEmpty()) {
            return secondarySort;
        }
        Comparator<Node> preference = order.get();
        // HDFS's own order first (its secondary sort, or the shuffle it does without one), then a stable sort: nodes
        // CloudTalk ranks equally keep HDFS's order.
        return group -> {
            if (secondarySort != null) {
                secondarySort.accept(group);
            } else {
                Collections.shuffle(group, ThreadLocalRandom.current());
            }
            group.sort(preference);
        };
    }
}
