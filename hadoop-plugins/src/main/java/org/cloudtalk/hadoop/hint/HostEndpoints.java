package org.cloudtalk.hadoop.hint;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.cloudtalk.lang.ast.Address;

/**
 * A Hadoop host's CloudTalk endpoint: its IP address in CloudTalk's canonical text. Hadoop names hosts by IP address
 * or by host name (DataNodes, NodeManagers, split locations); a name is resolved once and cached for the life of the
 * process, because daemons' names are stable and a lookup per decision would put DNS on the scheduling path.
 *
 * <p>Concurrency: thread-safe.
 */
public final class HostEndpoints {
    private final ConcurrentMap<String, Optional<String>> resolved = new ConcurrentHashMap<>();

    /** The endpoint of an IP address literal, or empty for anything else (no lookup). */
    public static Optional<String> literal(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Address.parse(text).text());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The endpoint of an address literal or of the address a host name resolves to; empty if it does not. */
    public Optional<String> of(String hostOrAddress) {
        Optional<String> literal = literal(hostOrAddress);
        if (literal.isPresent() || hostOrAddress == null || hostOrAddress.isEmpty()) {
            return literal;
        }
        return resolved.computeIfAbsent(hostOrAddress, HostEndpoints::resolve);
    }

    private static Optional<String> resolve(String hostName) {
        try {
            return literal(InetAddress.getByName(hostName).getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
