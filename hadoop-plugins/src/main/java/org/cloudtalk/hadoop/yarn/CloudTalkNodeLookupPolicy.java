package org.cloudtalk.hadoop.yarn;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.MultiNodeLookupPolicy;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.hint.HostEndpoints;
import org.cloudtalk.hadoop.yarn.ReducePreference.Ranking;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CapacityScheduler multi-node placement policy that offers nodes in CloudTalk's order of preference for receiving
 * and writing data (§5.3's reduce query), so that containers the MapReduce AM asks for on any host — reduces — land on
 * hosts whose receive links and disks are idle.
 *
 * <p>The scheduler visits nodes in this order for every container and takes the first that fits, so the order is:
 * the hosts the query placed first, least allocated first (read at each call, so consecutive reduces spread over the
 * placed hosts instead of piling onto the best one), then CloudTalk's rank; then the other nodes as the stock
 * {@code ResourceUsageMultiNodeLookupPolicy} orders them at each refresh (least allocated first), then by rank. A
 * call sorts the placed hosts only (at most {@code cloudtalk.yarn.reduce.hosts.max}), not the partition. No node is ever left out, so no request waits
 * for a "best" node. Maps with local data still find their node: the scheduler matches locality on every node it
 * visits.
 *
 * <p>The query runs on the scheduler's node-sorting thread once per sorting interval, never while a container
 * waits. Without a usable answer (server slow, down or wrong: counted in the {@code CloudTalkYarnPlacement} metrics)
 * the last answer keeps ordering the nodes for up to {@code cloudtalk.yarn.stale.ms} after it came (give or take a
 * refresh period; counted as {@code StaleAnswersUsed}), so that a server's restart does not undo its placements; after
 * that, or without one, the order is the stock policy's: least allocated at the refresh first.
 *
 * <p>The scheduler builds the policy by reflection without a configuration, so its keys come from the
 * ResourceManager's {@code yarn-site.xml} on the class path.
 *
 * <p>Concurrency: the sorter thread publishes each partition's nodes and ranking as one immutable snapshot; the
 * scheduler's threads read the latest one.
 */
public final class CloudTalkNodeLookupPolicy<N extends SchedulerNode> implements MultiNodeLookupPolicy<N> {
    private static final Logger log = LoggerFactory.getLogger(CloudTalkNodeLookupPolicy.class);

    private final ReducePreference preference;
    private final long refreshNanos;
    private final long staleNanos;
    private final LongSupplier nanoClock;
    private final HostEndpoints endpoints = new HostEndpoints();
    private final Map<String, Snapshot<N>> partitions = new ConcurrentHashMap<>();

    public CloudTalkNodeLookupPolicy() {
        this(new YarnConfiguration());
    }

    CloudTalkNodeLookupPolicy(Configuration conf) {
        this(conf, System::nanoTime);
    }

    CloudTalkNodeLookupPolicy(Configuration conf, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        YarnHintSettings settings;
        try {
            settings = YarnHintSettings.from(conf);
        } catch (IllegalArgumentException e) {
            // The scheduler builds this policy by reflection and reports what its constructor throws wrapped twice,
            // the message in the innermost cause: say it plainly first.
            log.error("CloudTalk's YARN placement cannot start: {}", e.getMessage());
            throw e;
        }
        HintClient hints = HintClient.shared(
                "yarn", settings.hints(), "CloudTalkYarnPlacement", "CloudTalk node order for YARN containers");
        this.preference = new ReducePreference(hints, settings);
        this.refreshNanos = settings.refresh().toNanos();
        this.staleNanos = settings.stale().toNanos();
    }

    HintMetrics metrics() {
        return preference.metrics();
    }

    /** A node with its place in the ranking, fixed until the next refresh. */
    private record Placed<N>(N node, int position) {}

    /**
     * A partition as last refreshed: the hosts the answer placed (ordered at every call), then the other nodes in the
     * order fixed at the refresh; the hosts last asked about, when, and the ranking in use with the time it came.
     */
    private record Snapshot<N>(
            List<Placed<N>> preferred,
            List<N> rest,
            Set<String> asked,
            long askedAt,
            Optional<Ranking> ranking,
            long answeredAt) {}

    /** A node's ordering key: its allocation when read and its place in the ranking. */
    private record Keyed<N>(N node, long memory, long vcores, int position) {
        static <N extends SchedulerNode> Keyed<N> of(Placed<N> placed) {
            var allocated = placed.node().getAllocatedResource();
            return new Keyed<>(
                    placed.node(), allocated.getMemorySize(), allocated.getVirtualCores(), placed.position());
        }
    }

    private static final Comparator<Keyed<?>> ORDER = Comparator.<Keyed<?>>comparingLong(Keyed::memory)
            .thenComparingLong(Keyed::vcores)
            .thenComparingInt(Keyed::position);

    @Override
    public void addAndRefreshNodesSet(Collection<N> nodes, String partition) {
        List<N> list = new ArrayList<>(nodes);
        list.sort(Comparator.comparing(SchedulerNode::getNodeID));
        List<String> nodeEndpoints = new ArrayList<>(list.size());
        Set<String> distinct = new LinkedHashSet<>();
        for (N node : list) {
            String endpoint = endpoints.of(node.getNodeID().getHost()).orElse("");
            nodeEndpoints.add(endpoint);
            if (!endpoint.isEmpty()) {
                distinct.add(endpoint);
            }
        }
        Snapshot<N> last = partitions.get(partition);
        long now = nanoClock.getAsLong();
        // With a sorting interval of 0 the scheduler refreshes before every container: ask at most once per refresh
        // period for the same hosts, so the scheduling path never waits for the server.
        boolean fresh = last != null && last.asked().equals(distinct) && now - last.askedAt() < refreshNanos;
        long askedAt = fresh ? last.askedAt() : now;
        Optional<Ranking> ranking = fresh ? last.ranking() : preference.rank(distinct);
        long answeredAt = fresh ? last.answeredAt() : nanoClock.getAsLong();
        boolean stale = !fresh
                && ranking.isEmpty()
                && distinct.size() >= 2 // else there was no choice to ask about, not a failed query
                && last != null
                && last.ranking().isPresent()
                && staleNanos > 0
                && now - last.answeredAt() <= staleNanos;
        if (stale) {
            // Hosts the earlier answer did not rank (nodes added since) come after those it did.
            ranking = last.ranking();
            answeredAt = last.answeredAt();
        }
        List<Placed<N>> preferred = new ArrayList<>();
        List<Keyed<N>> rest = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String endpoint = nodeEndpoints.get(i);
            Placed<N> placed = new Placed<>(
                    list.get(i), ranking.isPresent() ? ranking.get().position(endpoint) : i);
            if (ranking.isPresent() && ranking.get().preferred(endpoint)) {
                preferred.add(placed);
            } else {
                rest.add(Keyed.of(placed));
            }
        }
        // The rest is ordered here, as the stock policy orders every node: a call then costs the few placed hosts'
        // sort, not the partition's.
        rest.sort(ORDER);
        Snapshot<N> next = new Snapshot<>(
                List.copyOf(preferred),
                rest.stream().map(Keyed::node).toList(),
                distinct,
                askedAt,
                ranking,
                answeredAt);
        // Refreshes may run at once (with a sorting interval of 0, on the scheduler's threads): one that began from a
        // snapshot another has replaced since gives way, so a failed query's stale order never hides a newer answer.
        boolean published = last == null
                ? partitions.putIfAbsent(partition, next) == null
                : partitions.replace(partition, last, next);
        if (published && stale) {
            preference.metrics().staleAnswerUsed();
        }
    }

    @Override
    public Iterator<N> getPreferredNodeIterator(Collection<N> nodes, String partition) {
        return order(partition).iterator();
    }

    @Override
    public Set<N> getNodesPerPartition(String partition) {
        Set<N> ordered = new LinkedHashSet<>();
        order(partition).forEach(ordered::add);
        return ordered;
    }

    /** The placed hosts, least allocated now first, then the rest as ordered at the refresh. */
    private Iterable<N> order(String partition) {
        Snapshot<N> snapshot = partitions.get(partition);
        if (snapshot == null) {
            return List.of();
        }
        if (snapshot.preferred().isEmpty()) {
            return snapshot.rest();
        }
        List<Keyed<N>> placed = new ArrayList<>(snapshot.preferred().size());
        snapshot.preferred().forEach(node -> placed.add(Keyed.of(node)));
        placed.sort(ORDER);
        return () -> Stream.concat(placed.stream().map(Keyed::node), snapshot.rest().stream())
                .iterator();
    }
}
