package org.cloudtalk.hadoop.hdfs;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.net.Node;
import org.cloudtalk.hadoop.hint.HostEndpoints;

/**
 * The CloudTalk endpoint (an IP address, in CloudTalk's canonical text) of an HDFS node.
 *
 * <ul>
 *   <li>A DataNode ({@link DatanodeID}): in {@link Mode#IP} its registered IP address, which the NameNode takes from
 *       the source address of the DataNode's registration RPC; in {@link Mode#HOSTNAME} the address its registered
 *       host name ({@code dfs.datanode.hostname}) resolves to — for hosts whose data interface is not the one they
 *       reach the NameNode from.
 *   <li>Any other node (a writer or reader that is not a DataNode): its name, when that is an IP address (the
 *       NameNode names such clients by the RPC source address).
 * </ul>
 *
 * <p>Concurrency: thread-safe; host name resolutions are cached for the life of the NameNode (DataNode names are
 * stable; an address change needs a NameNode restart in hostname mode).
 */
public final class Endpoints {
    /** Where a DataNode's endpoint comes from. */
    public enum Mode {
        IP,
        HOSTNAME
    }

    private final Mode mode;
    private final HostEndpoints hostEndpoints = new HostEndpoints();

    public Endpoints(Mode mode) {
        this.mode = requireNonNull(mode, "mode is null");
    }

    /** The node's endpoint, or empty when it has none CloudTalk could use. */
    public Optional<String> of(Node node) {
        if (node == null) {
            return Optional.empty();
        }
        if (node instanceof DatanodeID datanode) {
            return mode == Mode.IP
                    ? HostEndpoints.literal(datanode.getIpAddr())
                    : hostEndpoints.of(datanode.getHostName());
        }
        return HostEndpoints.literal(node.getName());
    }
}
