package org.cloudtalk.status.config;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.common.config.ConfigValues;
import org.cloudtalk.status.sample.DiskCounters;
import org.cloudtalk.status.sample.EndpointSettings;
import org.cloudtalk.status.sample.NicCounters;
import org.cloudtalk.status.sample.StatusSampler;
import org.cloudtalk.status.sample.SystemFiles;
import org.cloudtalk.status.wire.KeyFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status daemon's settings, from a properties file and command-line overrides. Every key is documented in
 * docs/status-daemon.md; unknown keys are errors, since a misspelt cap would otherwise be silently ignored.
 */
public record DaemonConfig(
        InetSocketAddress bindAddress,
        byte[] key,
        Duration sampleInterval,
        Duration smoothingWindow,
        Duration readTimeout,
        long maxClockSkewMillis,
        double rateLimitPerSource,
        int rateLimitBurst,
        Duration countersLogInterval,
        SystemFiles systemFiles,
        List<EndpointSettings> endpoints) {
    private static final Logger log = LoggerFactory.getLogger(DaemonConfig.class);

    public static final int DEFAULT_PORT = 7450;
    private static final long DEFAULT_NIC_MBPS = 1000;
    private static final long DEFAULT_DISK_MIBPS = 200;
    private static final Set<String> GLOBAL_KEYS = Set.of(
            "bind",
            "port",
            "key.file",
            "sample.interval.ms",
            "smoothing.window.ms",
            "read.timeout.ms",
            "max.clock.skew.ms",
            "rate.limit.per.source",
            "rate.limit.burst",
            "counters.log.interval.s",
            "endpoints",
            "sysfs.root",
            "procfs.root");
    /** May be set globally or per endpoint as {@code endpoint.<ip>.<key>}. */
    private static final Set<String> ENDPOINT_KEYS = Set.of(
            "interface",
            "disk",
            "disk.path",
            "nic.capacity.mbps",
            "nic.rx.capacity.mbps",
            "nic.tx.capacity.mbps",
            "disk.read.capacity.mibps",
            "disk.write.capacity.mibps");

    private static final String ENDPOINT_PREFIX = "endpoint.";
    /** The endpoint keys whose values are capacities, in Mbit/s or MiB/s. */
    private static final Set<String> NUMBER_KEYS = Set.of(
            "nic.capacity.mbps",
            "nic.rx.capacity.mbps",
            "nic.tx.capacity.mbps",
            "disk.read.capacity.mibps",
            "disk.write.capacity.mibps");

    private static final long MAX_CAPACITY = 100_000_000;

    public DaemonConfig {
        requireNonNull(bindAddress, "bindAddress is null");
        key = Arrays.copyOf(requireNonNull(key, "key is null"), key.length);
        endpoints = List.copyOf(endpoints);
    }

    @Override
    public byte[] key() {
        return Arrays.copyOf(key, key.length);
    }

    /** Reads settings; {@code properties} maps keys to values as written (file first, then flags over it). */
    public static DaemonConfig from(Map<String, String> properties) throws ConfigException {
        Settings settings = new Settings(properties);
        settings.checkKeys();
        InetAddress bind = settings.address("bind", "0.0.0.0");
        int port = (int) settings.number("port", DEFAULT_PORT, 0, 65_535);
        byte[] key = readKey(settings.required("key.file"));
        Duration interval = Duration.ofMillis(settings.number("sample.interval.ms", 250, 10, 60_000));
        Duration window = Duration.ofMillis(settings.number("smoothing.window.ms", 1000, 10, 600_000));
        if (window.compareTo(interval) < 0) {
            throw ConfigException.invalid(
                    "smoothing.window.ms", Long.toString(window.toMillis()), "must be at least sample.interval.ms");
        }
        Duration readTimeout = Duration.ofMillis(
                settings.number("read.timeout.ms", StatusSampler.DEFAULT_READ_TIMEOUT.toMillis(), 1, 60_000));
        long skew = settings.number("max.clock.skew.ms", 1000, 100, 600_000);
        long rate = settings.number("rate.limit.per.source", 20_000, 1, 10_000_000);
        int burst = (int) settings.number("rate.limit.burst", 1000, 1, 1_000_000);
        Duration countersLog = Duration.ofSeconds(settings.number("counters.log.interval.s", 60, 0, 86_400));
        SystemFiles files =
                new SystemFiles(settings.directory("sysfs.root", "/sys"), settings.directory("procfs.root", "/proc"));
        List<InetAddress> served = settings.endpoints();
        Map<InetAddress, Map<String, String>> perEndpointKeys = settings.perEndpointKeys(served);
        List<EndpointSettings> endpoints = new ArrayList<>();
        for (InetAddress endpoint : served) {
            endpoints.add(settings.endpoint(endpoint, perEndpointKeys.getOrDefault(endpoint, Map.of()), files));
        }
        return new DaemonConfig(
                new InetSocketAddress(bind, port),
                key,
                interval,
                window,
                readTimeout,
                skew,
                rate,
                burst,
                countersLog,
                files,
                endpoints);
    }

    private static byte[] readKey(String file) throws ConfigException {
        try {
            return KeyFile.read(Path.of(file));
        } catch (IOException e) {
            throw ConfigException.invalid("key.file", file, "cannot read it (" + e.getMessage() + ")");
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("key.file", file, e.getMessage());
        }
    }

    /** Typed access to the raw key/value pairs, with the error messages operators see. */
    private static final class Settings {
        private final Map<String, String> properties;

        Settings(Map<String, String> properties) {
            this.properties = requireNonNull(properties, "properties is null");
        }

        void checkKeys() throws ConfigException {
            for (Map.Entry<String, String> entry : properties.entrySet()) {
                String key = entry.getKey();
                if (!GLOBAL_KEYS.contains(key)
                        && !ENDPOINT_KEYS.contains(key)
                        && endpointSuffix(key).isEmpty()) {
                    throw new ConfigException("Unknown configuration key " + key + colonHint(key, entry.getValue()));
                }
                if (entry.getValue().indexOf('\0') >= 0) {
                    // Paths and interface names are made of values: the JDK refuses a NUL in a path with an
                    // exception of its own, which would surface as an internal error.
                    throw ConfigException.invalid(key, entry.getValue(), "contains a NUL character");
                }
            }
        }

        /**
         * java.util.Properties ends a key at its first unescaped ':', so {@code endpoint.::1.disk = sda} arrives as
         * key {@code endpoint.} with value {@code :1.disk = sda}. When the key and value, joined again, make an
         * endpoint key, say how to write it.
         */
        private static String colonHint(String key, String value) {
            if (!key.startsWith(ENDPOINT_PREFIX)) {
                return "";
            }
            String written = key + ":" + value.split("[=\\s]", 2)[0];
            return endpointSuffix(written).isPresent()
                    ? ": a ':' in a key must be escaped as '\\:' (write " + written.replace(":", "\\:") + ")"
                    : "";
        }

        /** The endpoint key that {@code key} sets for one endpoint, {@code endpoint.<ip>.<suffix>}; the longest wins. */
        private static Optional<String> endpointSuffix(String key) {
            if (!key.startsWith(ENDPOINT_PREFIX)) {
                return Optional.empty();
            }
            return ENDPOINT_KEYS.stream()
                    .filter(suffix ->
                            key.endsWith("." + suffix) && key.length() > ENDPOINT_PREFIX.length() + suffix.length() + 1)
                    .max(Comparator.comparingInt(String::length));
        }

        /**
         * Every {@code endpoint.<ip>.<key>}, by the endpoint it names: served endpoint -> endpoint key -> the key as
         * written. The address may be written in any form ({@code ::1} or {@code 0:0:0:0:0:0:0:1}), so keys are
         * matched by parsed address, not by text. A key for an address this daemon does not serve is not an error,
         * since one file may configure the daemons of several hosts, but its value must still be valid and it is
         * logged, so a mistyped address is not silently ignored.
         */
        Map<InetAddress, Map<String, String>> perEndpointKeys(List<InetAddress> served) throws ConfigException {
            Map<InetAddress, Map<String, String>> keysByEndpoint = new HashMap<>();
            // In order, so that of two keys for one endpoint the message always names the same one first.
            for (String key : new TreeSet<>(properties.keySet())) {
                Optional<String> suffix = endpointSuffix(key);
                if (suffix.isEmpty()) {
                    continue;
                }
                String value = properties.get(key);
                String written = key.substring(
                        ENDPOINT_PREFIX.length(), key.length() - suffix.get().length() - 1);
                InetAddress address;
                try {
                    address = ConfigValues.literal(key, written);
                } catch (ConfigException e) {
                    throw ConfigException.invalid(key, value, written + " is not an IP address literal");
                }
                if (NUMBER_KEYS.contains(suffix.get()) && value(key).isPresent()) {
                    ConfigValues.parse(key, value(key).get(), 1, MAX_CAPACITY);
                }
                if (!served.contains(address)) {
                    log.warn(
                            "{} is ignored: {} is not one of the endpoints this daemon serves ({})",
                            key,
                            written,
                            served.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(", ")));
                    continue;
                }
                String earlier = keysByEndpoint
                        .computeIfAbsent(address, a -> new HashMap<>())
                        .putIfAbsent(suffix.get(), key);
                if (earlier != null) {
                    throw ConfigException.invalid(key, value, "the same endpoint is also set by " + earlier);
                }
            }
            return keysByEndpoint;
        }

        Optional<String> value(String key) {
            return ConfigValues.value(properties, key);
        }

        String required(String key) throws ConfigException {
            return value(key).orElseThrow(() -> new ConfigException("Missing required key " + key));
        }

        long number(String key, long defaultValue, long min, long max) throws ConfigException {
            return ConfigValues.number(properties, key, defaultValue, min, max);
        }

        InetAddress address(String key, String defaultValue) throws ConfigException {
            return ConfigValues.address(properties, key, defaultValue);
        }

        List<InetAddress> endpoints() throws ConfigException {
            Optional<String> configured = value("endpoints");
            List<InetAddress> endpoints = new ArrayList<>();
            if (configured.isPresent()) {
                for (String item : configured.get().split("[,\\s]+")) {
                    if (!item.isEmpty()) {
                        InetAddress endpoint = ConfigValues.literal("endpoints", item);
                        if (endpoints.contains(endpoint)) {
                            // 10.0.0.1 and ::ffff:10.0.0.1 too: served twice, each reply would carry it twice.
                            throw ConfigException.invalid(
                                    "endpoints",
                                    configured.get(),
                                    item + " is " + endpoint.getHostAddress() + ", listed more than once");
                        }
                        endpoints.add(endpoint);
                    }
                }
            } else {
                endpoints.addAll(localAddresses());
            }
            if (endpoints.isEmpty()) {
                throw ConfigException.invalid(
                        "endpoints", configured.orElse("(unset)"), "no endpoint to serve; list the host's addresses");
            }
            return endpoints;
        }

        private static List<InetAddress> localAddresses() throws ConfigException {
            List<InetAddress> addresses = new ArrayList<>();
            try {
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    if (nic.isUp() && !nic.isLoopback()) {
                        nic.inetAddresses().filter(a -> !a.isLinkLocalAddress()).forEach(addresses::add);
                    }
                }
            } catch (SocketException e) {
                throw new ConfigException("Cannot list network interfaces: " + e.getMessage());
            }
            return addresses;
        }

        /** One served endpoint's settings; {@code ownKeys} maps endpoint keys to the keys that set them for it. */
        EndpointSettings endpoint(InetAddress endpoint, Map<String, String> ownKeys, SystemFiles files)
                throws ConfigException {
            String ip = endpoint.getHostAddress();
            Optional<String> namedInterface = forEndpoint(ownKeys, "interface");
            String iface;
            if (namedInterface.isPresent()) {
                iface = namedInterface.get();
                // A missing device would only show as an endpoint reported fully used, for as long as the daemon runs.
                if (!NicCounters.exists(files, iface)) {
                    throw ConfigException.invalid(keySetting(ownKeys, "interface"), iface, "no such network interface");
                }
            } else {
                iface = interfaceHolding(endpoint)
                        .orElseThrow(() -> ConfigException.invalid(
                                "endpoints", ip, "no local interface holds it; set " + escapedKey(ip, "interface")));
            }
            Optional<String> disk = forEndpoint(ownKeys, "disk");
            if (disk.isPresent()) {
                checkDiskListed(keySetting(ownKeys, "disk"), disk.get(), files);
            } else {
                String path = forEndpoint(ownKeys, "disk.path").orElse("/");
                if (!Files.exists(Path.of(path))) {
                    throw ConfigException.invalid(keySetting(ownKeys, "disk.path"), path, "no such file or directory");
                }
                disk = deviceUnder(ip, path, files);
            }
            OptionalLong deviceSpeed = NicCounters.speedBitsPerSecond(files, iface);
            long rx = nicCapacity(ownKeys, "nic.rx.capacity.mbps", deviceSpeed);
            long tx = nicCapacity(ownKeys, "nic.tx.capacity.mbps", deviceSpeed);
            if (deviceSpeed.isEmpty()
                    && !(capSet(ownKeys, "nic.rx.capacity.mbps") && capSet(ownKeys, "nic.tx.capacity.mbps"))) {
                log.warn(
                        "{}: {} reports no link speed and no nic.capacity.mbps is set; assuming {} Mbit/s",
                        ip,
                        iface,
                        DEFAULT_NIC_MBPS);
            }
            long read = endpointNumber(ownKeys, "disk.read.capacity.mibps", DEFAULT_DISK_MIBPS) << 20;
            long write = endpointNumber(ownKeys, "disk.write.capacity.mibps", DEFAULT_DISK_MIBPS) << 20;
            return new EndpointSettings(endpoint, iface, disk, rx, tx, read, write);
        }

        /** {@code endpoint.<ip>.<key>} as a properties file must spell it: an IPv6 address's ':' escaped. */
        private static String escapedKey(String ip, String key) {
            return ENDPOINT_PREFIX + ip.replace(":", "\\:") + "." + key;
        }

        /** A named disk that is not there would only show as an endpoint reported fully used. */
        private static void checkDiskListed(String key, String device, SystemFiles files) throws ConfigException {
            try {
                if (!DiskCounters.isListed(files, device)) {
                    throw ConfigException.invalid(key, device, "no such block device in " + files.diskstats());
                }
            } catch (IOException e) {
                throw ConfigException.invalid(
                        key, device, "cannot read " + files.diskstats() + " (" + e.getMessage() + ")");
            }
        }

        /** Whether the operator capped this direction (its own key or the key for both directions). */
        private boolean capSet(Map<String, String> ownKeys, String directionKey) {
            return forEndpoint(ownKeys, directionKey).isPresent()
                    || forEndpoint(ownKeys, "nic.capacity.mbps").isPresent();
        }

        /** The operator's cap (direction-specific first, then both directions), bounded by the device's speed. */
        private long nicCapacity(Map<String, String> ownKeys, String directionKey, OptionalLong deviceSpeed)
                throws ConfigException {
            OptionalLong cap = OptionalLong.empty();
            for (String key : List.of(directionKey, "nic.capacity.mbps")) {
                if (cap.isEmpty() && forEndpoint(ownKeys, key).isPresent()) {
                    cap = OptionalLong.of(endpointNumber(ownKeys, key, 0) * 1_000_000);
                }
            }
            if (cap.isPresent() && deviceSpeed.isPresent()) {
                return Math.min(cap.getAsLong(), deviceSpeed.getAsLong());
            }
            return cap.orElse(deviceSpeed.orElse(DEFAULT_NIC_MBPS * 1_000_000));
        }

        private long endpointNumber(Map<String, String> ownKeys, String key, long defaultValue) throws ConfigException {
            Optional<String> perEndpoint = Optional.ofNullable(ownKeys.get(key));
            if (perEndpoint.isPresent() && value(perEndpoint.get()).isPresent()) {
                return ConfigValues.parse(
                        perEndpoint.get(), value(perEndpoint.get()).get(), 1, MAX_CAPACITY);
            }
            return number(key, defaultValue, 1, MAX_CAPACITY);
        }

        /** The key that gives the endpoint its value of {@code key}, for messages: its own, else the global one. */
        private String keySetting(Map<String, String> ownKeys, String key) {
            String own = ownKeys.get(key);
            return own != null && value(own).isPresent() ? own : key;
        }

        /** A directory the daemon reads from: it must exist, or every counter under it would read as missing. */
        Path directory(String key, String defaultValue) throws ConfigException {
            String value = value(key).orElse(defaultValue);
            if (!Files.isDirectory(Path.of(value))) {
                throw ConfigException.invalid(key, value, "no such directory");
            }
            return Path.of(value);
        }

        /** The endpoint's own setting of {@code key}, else the global one. */
        private Optional<String> forEndpoint(Map<String, String> ownKeys, String key) {
            return Optional.ofNullable(ownKeys.get(key)).flatMap(this::value).or(() -> value(key));
        }

        private static Optional<String> interfaceHolding(InetAddress endpoint) throws ConfigException {
            try {
                return Optional.ofNullable(NetworkInterface.getByInetAddress(endpoint))
                        .map(NetworkInterface::getName);
            } catch (SocketException e) {
                throw new ConfigException("Cannot list network interfaces: " + e.getMessage());
            }
        }

        private static Optional<String> deviceUnder(String ip, String path, SystemFiles files) {
            try {
                Optional<String> device = DiskCounters.deviceFor(files, Path.of(path));
                if (device.isEmpty()) {
                    log.warn("{}: {} is on no block device; disk use is not sampled (set disk)", ip, path);
                }
                return device;
            } catch (IOException e) {
                log.warn("{}: cannot find the device under {}; disk use is not sampled: {}", ip, path, e.toString());
                return Optional.empty();
            }
        }
    }
}
