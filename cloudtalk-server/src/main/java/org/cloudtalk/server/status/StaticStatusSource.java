package org.cloudtalk.server.status;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * Host load from a JSON file, re-read when it changes: for tests, demos, simulations and {@code info=static}. The
 * fields are those of {@code cloudtalk status probe}, units in their names:
 *
 * <pre>{@code
 * {"hosts": {"10.0.0.1": {"nicRxCapacityBitsPerSecond": 1e9, "nicRxUseBitsPerSecond": 2e8,
 *                         "nicTxCapacityBitsPerSecond": 1e9, "nicTxUseBitsPerSecond": 0,
 *                         "diskReadCapacityBytesPerSecond": 2e8, "diskReadUseBytesPerSecond": 0,
 *                         "diskWriteCapacityBytesPerSecond": 2e8, "diskWriteUseBytesPerSecond": 0}}}
 * }</pre>
 *
 * A host's value may also be the reply {@code cloudtalk status probe} prints (its entry for that host, or its only
 * entry is used), and the whole file may be one such reply (each endpoint the daemon knows is a host). Missing use
 * fields are 0; missing capacities make the file invalid. Hosts not in the file count as not answering (the answer's
 * status counts say so).
 *
 * <p>Concurrency: thread-safe; the parsed file is an immutable map swapped under the instance lock.
 */
public final class StaticStatusSource implements StatusSource {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private FileTime loadedVersion;
    private Map<String, HostLoad> hosts = Map.of();

    public StaticStatusSource(Path file) throws IOException {
        this.file = requireNonNull(file, "file is null");
        reloadIfChanged();
    }

    @Override
    public Gathered gather(Set<Address> addresses, Duration wait) {
        Map<String, HostLoad> current;
        try {
            current = reloadIfChanged();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read status file " + file, e);
        }
        Map<String, HostLoad> loads = new HashMap<>();
        int answered = 0;
        for (Address address : addresses) {
            HostLoad load = current.get(address.text());
            if (load != null) {
                loads.put(address.text(), load);
                answered++;
            }
        }
        return new Gathered(new ClusterState(loads), addresses.size(), answered, 0);
    }

    private synchronized Map<String, HostLoad> reloadIfChanged() throws IOException {
        FileTime version = Files.getLastModifiedTime(file);
        if (!version.equals(loadedVersion)) {
            hosts = parse(file);
            loadedVersion = version;
        }
        return hosts;
    }

    static Map<String, HostLoad> parse(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root != null && root.has("endpoints") && !root.has("hosts")) {
            // A probe's reply as it is: every endpoint the daemon knows is a host.
            Map<String, HostLoad> hosts = new HashMap<>();
            for (JsonNode endpoint : endpoints(file, "the probe reply", root)) {
                if (endpoint.path("known").asBoolean(true)) {
                    String address = address(file, endpoint.path("endpoint").asText(""));
                    hosts.put(address, load(file, address, endpoint));
                }
            }
            return Map.copyOf(hosts);
        }
        JsonNode hostsNode = root == null ? null : root.get("hosts");
        if (hostsNode == null || !hostsNode.isObject()) {
            throw new IOException(file + ": expected an object with a \"hosts\" object, or a status probe's reply");
        }
        Map<String, HostLoad> hosts = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = hostsNode.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String address = address(file, entry.getKey());
            JsonNode host = entry.getValue();
            if (host.has("endpoints")) {
                host = endpointOf(file, address, host);
            }
            hosts.put(address, load(file, address, host));
        }
        return Map.copyOf(hosts);
    }

    private static String address(Path file, String text) throws IOException {
        try {
            return Address.parse(text).text();
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": host '" + text + "': " + e.getMessage());
        }
    }

    private static JsonNode endpoints(Path file, String what, JsonNode reply) throws IOException {
        JsonNode endpoints = reply.get("endpoints");
        if (!endpoints.isArray()) {
            throw new IOException(file + ": " + what + ": \"endpoints\" is not an array");
        }
        return endpoints;
    }

    /** The entry for {@code address} in a probe's reply pasted as one host's value. */
    private static JsonNode endpointOf(Path file, String address, JsonNode reply) throws IOException {
        JsonNode endpoints = endpoints(file, "host " + address, reply);
        for (JsonNode endpoint : endpoints) {
            String name = endpoint.path("endpoint").asText("");
            if (endpoints.size() == 1 || address.equals(address(file, name))) {
                if (!endpoint.path("known").asBoolean(true)) {
                    throw new IOException(file + ": host " + address + ": the daemon did not know this endpoint");
                }
                return endpoint;
            }
        }
        throw new IOException(file + ": host " + address + ": the probe reply has no entry for it");
    }

    private static HostLoad load(Path file, String address, JsonNode host) throws IOException {
        try {
            return new HostLoad(
                    required(host, "nicRxCapacityBitsPerSecond") / 8,
                    optional(host, "nicRxUseBitsPerSecond") / 8,
                    required(host, "nicTxCapacityBitsPerSecond") / 8,
                    optional(host, "nicTxUseBitsPerSecond") / 8,
                    required(host, "diskReadCapacityBytesPerSecond"),
                    optional(host, "diskReadUseBytesPerSecond"),
                    required(host, "diskWriteCapacityBytesPerSecond"),
                    optional(host, "diskWriteUseBytesPerSecond"));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": host " + address + ": " + e.getMessage());
        }
    }

    private static double required(JsonNode host, String field) {
        JsonNode value = host.get(field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException("missing number " + field);
        }
        return value.asDouble();
    }

    private static double optional(JsonNode host, String field) {
        JsonNode value = host.get(field);
        if (value != null && !value.isNumber()) {
            throw new IllegalArgumentException(field + " is not a number");
        }
        return value == null ? 0 : value.asDouble();
    }
}
