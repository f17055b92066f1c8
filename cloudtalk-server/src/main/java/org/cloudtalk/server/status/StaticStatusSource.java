package org.cloudtalk.server.status;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.cloudtalk.common.io.TextFile;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>A file that goes missing or becomes invalid while the server runs leaves its last good version in use (logged
 * once per bad version), so a writer replacing it never fails queries. Only a regular file of at most
 * {@link TextFile#MAX_BYTES} is read: a pipe or a device in its place would block or never end.
 *
 * <p>Concurrency: thread-safe; the parsed file is an immutable map in a volatile field. One query at a time checks
 * for a new version and parses it; the others meanwhile answer with the version in use rather than wait.
 */
public final class StaticStatusSource implements StatusSource {
    private static final Logger log = LoggerFactory.getLogger(StaticStatusSource.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** How often a file that failed to load is tried again while it looks unchanged. */
    private static final long RETRY_NANOS = Duration.ofSeconds(1).toNanos();

    private final Path file;
    private final LongSupplier nanoClock;
    /** Held by the query that checks the file; the fields below it are guarded by it. */
    private final ReentrantLock reload = new ReentrantLock();

    private Version loadedVersion;
    /** Why the file's latest version is not the one in use; null while it is. */
    private Failure failure;

    private volatile Map<String, HostLoad> hosts;

    /** What tells one content of the file from the next: a rewrite within one timestamp tick changes its size. */
    private record Version(FileTime modified, long size) {}

    /** The file failed to load at {@code nanos}: {@code version} is not valid, or (null) it could not be read. */
    private record Failure(Version version, long nanos) {}

    /** @throws IOException when the file cannot be read or is not valid: the server does not start */
    public StaticStatusSource(Path file) throws IOException {
        this(file, System::nanoTime);
    }

    StaticStatusSource(Path file, LongSupplier nanoClock) throws IOException {
        this.file = requireNonNull(file, "file is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        loadedVersion = version();
        if (loadedVersion.size() > TextFile.MAX_BYTES) {
            throw new IOException(file + ": larger than " + (TextFile.MAX_BYTES >> 20) + " MB");
        }
        hosts = parse(file);
    }

    @Override
    public Gathered gather(Set<Address> addresses, Duration wait) {
        Map<String, HostLoad> current = hosts;
        if (reload.tryLock()) {
            try {
                current = reloadIfChanged();
            } finally {
                reload.unlock();
            }
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

    /**
     * The file's hosts, re-read when it changed. A file that is missing or not valid for a moment (a writer that
     * truncates it first, as {@code status probe > file} does) leaves the last good version in use: one warning
     * per bad version, no failed query.
     */
    private Map<String, HostLoad> reloadIfChanged() {
        Version version;
        try {
            version = version();
        } catch (NotRegularFileException e) {
            failed(null, e.getMessage());
            return hosts;
        } catch (IOException e) {
            failed(null, e instanceof NoSuchFileException ? "it does not exist" : "cannot read it (" + e + ")");
            return hosts;
        }
        boolean knownBad = failure != null && version.equals(failure.version());
        boolean retry = knownBad && nanoClock.getAsLong() - failure.nanos() >= RETRY_NANOS;
        if (!version.equals(loadedVersion) && (!knownBad || retry)) {
            try {
                if (version.size() > TextFile.MAX_BYTES) {
                    throw new IOException("larger than " + (TextFile.MAX_BYTES >> 20) + " MB");
                }
                hosts = parse(file);
                loadedVersion = version;
                failure = null;
            } catch (IOException e) {
                failed(version, e.getMessage());
            }
        }
        return hosts;
    }

    private Version version() throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new NotRegularFileException(file);
        }
        return new Version(attributes.lastModifiedTime(), attributes.size());
    }

    /** A directory, pipe or device where the file should be: never opened (a pipe would block the reader). */
    private static final class NotRegularFileException extends IOException {
        NotRegularFileException(Path file) {
            super(file + ": not a regular file");
        }
    }

    /** @param version the bad version, or null when the file could not be read at all */
    private void failed(Version version, String reason) {
        if (failure == null || !Objects.equals(version, failure.version())) {
            // One line: the parser's messages carry the file's name already, and Jackson's a line break.
            String why = reason.replace(file + ": ", "").replaceAll("\\s+", " ");
            log.warn("status file {}: {}; its last good version stays in use", file, why);
        }
        failure = new Failure(version, nanoClock.getAsLong());
    }

    static Map<String, HostLoad> parse(Path file) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(TextFile.read(file));
        } catch (TextFile.BadTextException e) {
            throw new IOException(file + ": " + e.getMessage());
        } catch (JsonProcessingException e) {
            // One line, at the place in the file: Jackson's own message runs over lines and names its settings.
            String at = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new IOException(file + ": not valid JSON" + at + ": "
                    + e.getOriginalMessage().replaceAll("\\s+", " "));
        }
        if (root != null && root.has("endpoints") && !root.has("hosts")) {
            // A probe's reply as it is: every endpoint the daemon knows is a host.
            Map<String, HostLoad> hosts = new HashMap<>();
            for (JsonNode endpoint : endpoints(file, "the probe reply", root)) {
                if (endpoint.path("known").asBoolean(true)) {
                    String text = endpoint.path("endpoint").asText("");
                    String address = address(file, text);
                    once(file, hosts, address, text).put(address, load(file, address, endpoint));
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
            } else {
                onlyKnownFields(file, address, host);
            }
            once(file, hosts, address, entry.getKey()).put(address, load(file, address, host));
        }
        return Map.copyOf(hosts);
    }

    /**
     * {@code hosts}, after checking that it has no entry for {@code address} yet: two texts of one host (10.0.0.1 and
     * ::ffff:10.0.0.1) would otherwise leave whichever came last.
     */
    private static Map<String, HostLoad> once(Path file, Map<String, HostLoad> hosts, String address, String text)
            throws IOException {
        if (hosts.containsKey(address)) {
            throw new IOException(file + ": host '" + text + "' is " + address + ", which is given twice");
        }
        return hosts;
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
                return known(file, address, endpoint);
            }
        }
        throw new IOException(file + ": host " + address + ": the probe reply has no entry for it");
    }

    /** {@code entry}, unless it is a probe's entry for an endpoint the daemon did not know (no load to read). */
    private static JsonNode known(Path file, String address, JsonNode entry) throws IOException {
        if (!entry.path("known").asBoolean(true)) {
            throw new IOException(file + ": host " + address + ": the daemon did not know this endpoint");
        }
        return entry;
    }

    /** A host's own fields, the status probe's names with units: a misspelt use field must not read as no load. */
    private static final Set<String> FIELDS = Set.of(
            "nicRxCapacityBitsPerSecond",
            "nicRxUseBitsPerSecond",
            "nicTxCapacityBitsPerSecond",
            "nicTxUseBitsPerSecond",
            "diskReadCapacityBytesPerSecond",
            "diskReadUseBytesPerSecond",
            "diskWriteCapacityBytesPerSecond",
            "diskWriteUseBytesPerSecond");

    /** What a probe's entry for one endpoint holds besides the load: its value may be pasted as a host's. */
    private static final Set<String> PROBE_ENTRY_FIELDS = Set.of("endpoint", "known", "sampleAgeMillis");

    private static void onlyKnownFields(Path file, String address, JsonNode host) throws IOException {
        if (!host.isObject()) {
            throw new IOException(file + ": host " + address + ": expected an object of numbers");
        }
        known(file, address, host);
        for (Iterator<String> names = host.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name) && !PROBE_ENTRY_FIELDS.contains(name)) {
                throw new IOException(file + ": host " + address + ": unknown field \"" + name + "\" (the fields are "
                        + String.join(", ", new TreeSet<>(FIELDS)) + ")");
            }
        }
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
        if (value == null) {
            throw new IllegalArgumentException("missing number " + field);
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException(field + " is not a number: " + value);
        }
        return notNegative(field, value);
    }

    private static double optional(JsonNode host, String field) {
        JsonNode value = host.get(field);
        if (value != null && !value.isNumber()) {
            throw new IllegalArgumentException(field + " is not a number: " + value);
        }
        return value == null ? 0 : notNegative(field, value);
    }

    /** Checked here, in the file's own units: the load checks its values after bits became bytes. */
    private static double notNegative(String field, JsonNode value) {
        if (value.asDouble() < 0) {
            throw new IllegalArgumentException(field + " is negative: " + value.asText());
        }
        return value.asDouble();
    }
}
