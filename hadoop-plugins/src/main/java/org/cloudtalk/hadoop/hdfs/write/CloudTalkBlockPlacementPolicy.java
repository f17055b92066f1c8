package org.cloudtalk.hadoop.hdfs.write;

import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.cloudtalk.hadoop.hdfs.Endpoints;
import org.cloudtalk.hadoop.hdfs.HdfsHintSettings;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;

/**
 * HDFS's default block placement with CloudTalk choosing among the nodes it allows
 * ({@code dfs.block.replicator.classname}). For each new block the §5.3 pipeline-write query ranks the usable
 * DataNodes; the default policy then runs unchanged except that wherever it would pick a node at random within a
 * scope (the whole cluster, another rack, the second replica's rack) it gets CloudTalk's best node there, and every
 * pick still passes its own checks (excluded, stale, decommissioning, slow, load, space, storage type, nodes per
 * rack) or is dropped for the next one. The writer's own node gets a replica only if CloudTalk ranks it among the
 * best. Re-replication, pipeline recovery and favored nodes keep the default behaviour (docs/hadoop-plugins.md).
 *
 * <p>Concurrency: the NameNode calls it from many RPC handlers at once; the preference for the block being placed is
 * confined to the calling thread, and the planner is immutable after {@link #setConf}.
 */
public class CloudTalkBlockPlacementPolicy extends BlockPlacementPolicyDefault implements Configurable {
    private static final ThreadLocal<WritePreference> PREFERENCE = new ThreadLocal<>();

    private Configuration conf;
    private WritePlanner planner;

    /** Hadoop creates the policy with {@code ReflectionUtils.newInstance(class, conf)}, which calls this first. */
    @Override
    public void setConf(Configuration conf) {
        this.conf = conf;
        HdfsHintSettings settings = HdfsHintSettings.from(conf);
        if (settings.writeEnabled()) {
            HintClient hints = HintClient.shared(
                    "hdfs-write", settings.writeHints(), "CloudTalkHdfsWrite", "CloudTalk block placement");
            planner = new WritePlanner(
                    hints,
                    new Endpoints(settings.endpoints()),
                    settings.maxCandidates(),
                    settings.blocksPerQuery(),
                    settings.answerReuse());
        }
    }

    /** This plugin's counters, or empty when {@code cloudtalk.hdfs.write.enabled} is false. */
    public Optional<HintMetrics> metrics() {
        return Optional.ofNullable(planner).map(WritePlanner::metrics);
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    @Override
    public DatanodeStorageInfo[] chooseTarget(
            String srcPath,
            int numOfReplicas,
            Node writer,
            List<DatanodeStorageInfo> chosen,
            boolean returnChosenNodes,
            Set<Node> excludedNodes,
            long blocksize,
            BlockStoragePolicy storagePolicy,
            EnumSet<AddBlockFlag> flags) {
        return chooseTarget(
                srcPath,
                numOfReplicas,
                writer,
                chosen,
                returnChosenNodes,
                excludedNodes,
                blocksize,
                storagePolicy,
                flags,
                null);
    }

    @Override
    public DatanodeStorageInfo[] chooseTarget(
            String srcPath,
            int numOfReplicas,
            Node writer,
            List<DatanodeStorageInfo> chosen,
            boolean returnChosenNodes,
            Set<Node> excludedNodes,
            long blocksize,
            BlockStoragePolicy storagePolicy,
            EnumSet<AddBlockFlag> flags,
            EnumMap<StorageType, Integer> storageTypes) {
        // NO_LOCAL_WRITE (e.g. HBase WALs): keep the writer so the default can honour it, and leave it out of the
        // query.
        Node avoid =
                flags != null && flags.contains(AddBlockFlag.NO_LOCAL_WRITE) && writer instanceof DatanodeDescriptor
                        ? writer
                        : null;
        // Only new blocks ask CloudTalk: with replicas already chosen this is re-replication or pipeline recovery.
        Optional<WritePreference> preference = planner == null || numOfReplicas < 1 || !chosen.isEmpty()
                ? Optional.empty()
                : planner.plan(
                        writer,
                        numOfReplicas,
                        getMaxNodesPerRack(0, numOfReplicas)[1],
                        excludedNodes,
                        avoid,
                        blocksize,
                        clusterMap.getLeaves(NodeBase.ROOT));
        preference.ifPresent(PREFERENCE::set);
        DatanodeStorageInfo[] targets;
        try {
            // With a preference and no writer, the default picks the first replica in the whole cluster — CloudTalk's
            // best — instead of on the writer's node or rack; the pipeline then starts at that first replica.
            targets = super.chooseTarget(
                    srcPath,
                    numOfReplicas,
                    preference.isPresent() ? avoid : writer,
                    chosen,
                    returnChosenNodes,
                    excludedNodes,
                    blocksize,
                    storagePolicy,
                    flags,
                    storageTypes);
        } finally {
            PREFERENCE.remove();
        }
        preference.ifPresent(chosenPreference -> planner.record(chosenPreference, targets));
        return targets;
    }

    @Override
    protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes) {
        DatanodeDescriptor preferred = preferred(scope, excludedNodes, null);
        return preferred != null ? preferred : super.chooseDataNode(scope, excludedNodes);
    }

    @Override
    protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes, StorageType type) {
        DatanodeDescriptor preferred = preferred(scope, excludedNodes, type);
        return preferred != null ? preferred : super.chooseDataNode(scope, excludedNodes, type);
    }

    private static DatanodeDescriptor preferred(String scope, Collection<Node> excludedNodes, StorageType type) {
        WritePreference preference = PREFERENCE.get();
        return preference == null ? null : preference.best(scope, excludedNodes, type);
    }
}
