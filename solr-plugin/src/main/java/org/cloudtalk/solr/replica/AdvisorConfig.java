package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.api.EvaluatorName;

/**
 * The plugin's settings, from the {@code <shardHandlerFactory>} init args in {@code solr.xml}; every key is documented
 * in docs/solr-plugin.md.
 */
public record AdvisorConfig(
        URI server,
        Duration deadline,
        Duration queryTimeout,
        Duration cacheTtl,
        long responseBytes,
        long diskReadBytes,
        EvaluatorName evaluator,
        Map<String, String> hostMap,
        Optional<Path> hostMapFile,
        int threads) {
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

    public static final String SERVER = "cloudtalk.server";
    public static final String DEADLINE_MS = "cloudtalk.deadline.ms";
    public static final String QUERY_TIMEOUT_MS = "cloudtalk.query.timeout.ms";
    public static final String CACHE_TTL_MS = "cloudtalk.cache.ttl.ms";
    public static final String RESPONSE_BYTES = "cloudtalk.response.bytes";
    public static final String DISK_READ_BYTES = "cloudtalk.disk.read.bytes";
    public static final String EVALUATOR = "cloudtalk.evaluator";
    public static final String HOST_MAP = "cloudtalk.host.map";
    public static final String HOST_MAP_FILE = "cloudtalk.host.map.file";
    public static final String THREADS = "cloudtalk.threads";

    /** Every key this plugin reads; other {@code cloudtalk.*} keys, in any case, are a typo and refused. */
    public static final Set<String> KEYS = Set.of(
            SERVER,
            DEADLINE_MS,
            QUERY_TIMEOUT_MS,
            CACHE_TTL_MS,
            RESPONSE_BYTES,
            DISK_READ_BYTES,
            EVALUATOR,
            HOST_MAP,
            HOST_MAP_FILE,
            THREADS);

    public AdvisorConfig {
        requireNonNull(server, "server is null");
        requireNonNull(deadline, "deadline is null");
        requireNonNull(queryTimeout, "queryTimeout is null");
        requireNonNull(cacheTtl, "cacheTtl is null");
        requireNonNull(evaluator, "evaluator is null");
        hostMap = Map.copyOf(requireNonNull(hostMap, "hostMap is null"));
        requireNonNull(hostMapFile, "hostMapFile is null");
    }

    /** Reads the {@code cloudtalk.*} entries of {@code values}; the others belong to Solr. */
    public static AdvisorConfig from(Map<String, String> values) {
        for (String key : values.keySet()) {
            // In any case: Solr's keys are case-sensitive, and CloudTalk.deadline.ms would otherwise be ignored.
            if (key.toLowerCase(Locale.ROOT).startsWith("cloudtalk.") && !KEYS.contains(key)) {
                throw new ConfigException(key, values.get(key), "unknown key; known keys are " + KEYS);
            }
        }
        String hostMapFile = values.getOrDefault(HOST_MAP_FILE, "").trim();
        return new AdvisorConfig(
                server(text(values, SERVER, "http://127.0.0.1:7480")),
                Duration.ofMillis(number(values, DEADLINE_MS, 5, 1, 60_000)),
                Duration.ofMillis(number(values, QUERY_TIMEOUT_MS, 1000, 1, 60_000)),
                Duration.ofMillis(number(values, CACHE_TTL_MS, 200, 0, 3_600_000)),
                number(values, RESPONSE_BYTES, 10 * 1024, 1, 1L << 40),
                number(values, DISK_READ_BYTES, 0, 0, 1L << 40),
                evaluator(text(values, EVALUATOR, "refined")),
                HostMapper.parseInline(HOST_MAP, values.getOrDefault(HOST_MAP, "")),
                hostMapFile.isEmpty() ? Optional.empty() : Optional.of(Path.of(hostMapFile)),
                (int) number(values, THREADS, 2, 1, 64));
    }

    private static URI server(String value) {
        try {
            return CloudTalkClient.serverBase(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(SERVER, value, e.getMessage());
        }
    }

    private static EvaluatorName evaluator(String value) {
        return EvaluatorName.forPlugins(value)
                .orElseThrow(
                        () -> new ConfigException(EVALUATOR, value, "expected heuristic, flow, exhaustive or refined"));
    }

    /** The key's value, trimmed; {@code defaultValue} when it is not set or blank, as for every key. */
    private static String text(Map<String, String> values, String key, String defaultValue) {
        String value = values.get(key);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    private static long number(Map<String, String> values, String key, long defaultValue, long min, long max) {
        String value = text(values, key, null);
        if (value == null) {
            return defaultValue;
        }
        long number;
        try {
            // As written in solrconfig.xml: Long.parseLong alone would also take "+5" and other scripts' digits.
            if (!WHOLE.matcher(value).matches()) {
                throw new NumberFormatException();
            }
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, value, "not an integer");
        }
        if (number < min || number > max) {
            throw new ConfigException(key, value, "expected " + min + ".." + max);
        }
        return number;
    }
}
