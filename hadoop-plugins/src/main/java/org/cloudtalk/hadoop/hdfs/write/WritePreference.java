package org.cloudtalk.hadoop.hdfs.write;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;

/**
 * CloudTalk's preference for one new block: DataNodes best first, starting with the replicas to aim for in the order
 * the default policy fills its slots; {@code answered} are the hosts the answer bound. The default policy asks it for
 * the best node within each scope it would otherwise pick at random, so its rack, exclusion and goodness rules decide
 * which of CloudTalk's choices stand.
 */
record WritePreference(List<DatanodeDescriptor> order, Set<DatanodeDescriptor> answered) {
    WritePreference {
        order = List.copyOf(requireNonNull(order, "order is null"));
        answered = Set.copyOf(requireNonNull(answered, "answered is null"));
    }

    /**
     * The most preferred node in {@code scope} (a network path, {@code ~path} for "outside it") that is not
     * excluded and has a usable storage of {@code type} (any type when null); null when none is.
     */
    DatanodeDescriptor best(String scope, Collection<Node> excluded, StorageType type) {
        for (DatanodeDescriptor node : order) {
            if (inScope(scope, node) && (excluded == null || !excluded.contains(node)) && hasStorage(node, type)) {
                return node;
            }
        }
        return null;
    }

    static boolean inScope(String scope, Node node) {
        boolean outside = scope.startsWith("~");
        String path = outside ? scope.substring(1) : scope;
        String nodePath = NodeBase.getPath(node);
        boolean inside = path.isEmpty()
                || path.equals(NodeBase.ROOT)
                || nodePath.equals(path)
                || nodePath.startsWith(
                        path.endsWith(NodeBase.PATH_SEPARATOR_STR) ? path : path + NodeBase.PATH_SEPARATOR_STR);
        return inside != outside;
    }

    /** Whether the node has a storage of the type; whether it is usable and has room, the default checks next. */
    private static boolean hasStorage(DatanodeDescriptor node, StorageType type) {
        return type == null || node.getStorageTypes().contains(type);
    }
}
