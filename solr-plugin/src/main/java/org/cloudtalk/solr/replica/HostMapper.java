package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.cloudtalk.lang.ast.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a Solr node name ({@code host:port_context}, e.g. {@code solr3.example:8983_solr}) to the endpoint IP
 * CloudTalk knows the host by. In order: an explicit entry for the whole node name, for {@code host:port}, or for the
 * host (from the map file, then the inline map); the host itself when it is an IP literal; otherwise the host name
 * resolved once through the JVM's resolver and remembered. Explicit entries are for hosts whose Solr address is not
 * the address their status daemon reports (several nodes on one machine, NAT, a separate data network).
 *
 * <p>Concurrency: thread-safe. The map file's contents are an immutable map in a volatile field, swapped when the
 * file's modification time changes (under the instance lock); resolved names live in a concurrent map.
 */
public final class HostMapper {
    private static final Logger log = LoggerFactory.getLogger(HostMapper.class);
    /** The largest map file read: a line per node, a million nodes in ~40 MB. */
    static final int MAX_FILE_BYTES = 64 << 20;

    private final Map<String, String> inline;
    private final Optional<Path> file;
    private final Map<String, Optional<String>> resolved = new ConcurrentHashMap<>();
    private volatile Map<String, String> fromFile = Map.of();
    private FileVersion fileVersion;

    /** Modification time and size: a rewrite within one timestamp tick usually changes the size. */
    private record FileVersion(FileTime modified, long size) {}

    /**
     * @throws ConfigException when the map file exists and cannot be used: at start-up there is no previous map to
     *     keep, and a mistake in the file is a mistake in the settings. A file that does not exist yet is an empty map.
     */
    public HostMapper(Map<String, String> inline, Optional<Path> file) {
        this.inline = Map.copyOf(requireNonNull(inline, "inline is null"));
        this.file = requireNonNull(file, "file is null");
        try {
            read();
        } catch (ConfigException e) {
            throw e;
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(AdvisorConfig.HOST_MAP_FILE, file.get().toString(), e.getMessage());
        }
    }

    /**
     * Re-reads the map file if it changed; a file that cannot be used keeps the previous map, logged once until the
     * file changes again (this runs on every request that asks).
     */
    public synchronized void refresh() {
        try {
            read();
        } catch (IOException | IllegalArgumentException e) {
            log.warn("Keeping the previous host map: cannot use {}: {}", file.get(), e.getMessage());
        }
    }

    /**
     * Reads the map file if it changed since the last attempt, successful or not. Throws what makes it unusable,
     * including the {@link IllegalArgumentException} of {@link Properties#load} for a malformed Unicode escape.
     * Called by the constructor and under the instance lock.
     */
    private void read() throws IOException {
        if (file.isEmpty()) {
            return;
        }
        Path path = file.get();
        FileVersion version;
        try {
            version = new FileVersion(Files.getLastModifiedTime(path), Files.size(path));
        } catch (NoSuchFileException e) {
            fromFile = Map.of();
            fileVersion = null;
            return;
        }
        if (version.equals(fileVersion)) {
            return;
        }
        // Remembered before reading: a file that fails is tried again when it changes, not on every request.
        fileVersion = version;
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            // Bounded: a special file such as /dev/zero would else hold this lock, and every query, for good.
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new IOException("larger than " + (MAX_FILE_BYTES >> 20) + " MB");
        }
        Properties properties = new Properties();
        // Strictly UTF-8, as the reader it replaces: a file in another encoding is refused, not read as garbage.
        properties.load(new StringReader(StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(bytes))
                .toString()));
        Map<String, String> entries = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> entries.put(key, properties.getProperty(key)));
        fromFile = validated(AdvisorConfig.HOST_MAP_FILE + " " + path, entries);
    }

    /** The endpoint IP of a Solr node, or empty when it has none. */
    public Optional<String> ip(String nodeName) {
        String hostPort = nodeName.contains("_") ? nodeName.substring(0, nodeName.indexOf('_')) : nodeName;
        int colon = hostPort.lastIndexOf(':');
        String host = colon > 0 && !hostPort.endsWith("]") ? hostPort.substring(0, colon) : hostPort;
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        Map<String, String> file = fromFile;
        for (String key : new String[] {nodeName, hostPort, host}) {
            String ip = file.getOrDefault(key, inline.get(key));
            if (ip != null) {
                return Optional.of(ip);
            }
        }
        Optional<String> literal = canonicalIp(host);
        if (literal.isPresent()) {
            return literal;
        }
        return resolved.computeIfAbsent(host, HostMapper::resolve);
    }

    /**
     * The canonical text of an IP literal, the form CloudTalk answers in (so that an answer matches the replica it
     * names), or empty when {@code text} is not one.
     */
    static Optional<String> canonicalIp(String text) {
        try {
            return Optional.of(Address.parse(text).text());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> resolve(String host) {
        try {
            return Optional.of(Address.of(InetAddress.getByName(host)).text());
        } catch (UnknownHostException e) {
            log.warn("Solr host {} does not resolve; map it in {}", host, AdvisorConfig.HOST_MAP);
            return Optional.empty();
        }
    }

    /** Parses {@code node-or-host=ip,node-or-host=ip}. */
    static Map<String, String> parseInline(String key, String value) {
        Map<String, String> entries = new HashMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int equals = entry.indexOf('=');
            if (equals <= 0) {
                throw new ConfigException(key, value, "expected node-or-host=ip entries separated by commas");
            }
            String name = entry.substring(0, equals).trim();
            String ip = entry.substring(equals + 1).trim();
            String earlier = entries.put(name, ip);
            if (earlier != null && !earlier.equals(ip)) {
                throw new ConfigException(key, value, name + " is mapped to " + earlier + " and to " + ip);
            }
        }
        return validated(key, entries);
    }

    /** The entries with their IPs in canonical text; an entry whose IP is not an IP literal is refused. */
    private static Map<String, String> validated(String key, Map<String, String> entries) {
        Map<String, String> canonical = new HashMap<>();
        entries.forEach((name, ip) -> canonical.put(
                name,
                canonicalIp(ip)
                        .orElseThrow(() ->
                                new ConfigException(key, name + "=" + ip, ip + " is not an IP address literal"))));
        return Map.copyOf(canonical);
    }
}
