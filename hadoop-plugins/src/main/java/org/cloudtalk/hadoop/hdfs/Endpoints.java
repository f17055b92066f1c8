package org.cloudtalk.hadoop.hdfs;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.net.Node;
import org.cloudtalk.lang.ast.Address;

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
    private final ConcurrentMap<String, Optional<String>> resolved = new ConcurrentHashMap<>();

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
                    ? literal(datanode.getIpAddr())
                    : resolved.computeIfAbsent(datanode.getHostName(), Endpoints::resolve);
        }
        return literal(node.getName());
    }

    private static Optional<String> resolve(String hostName) {
        Optional<String> literal = literal(hostName);
        if (literal.isPresent()) {
            return literal;
        }
        try {
            return literal(InetAddress.getByName(hostName).getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> literal(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Address.parse(text).text());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
