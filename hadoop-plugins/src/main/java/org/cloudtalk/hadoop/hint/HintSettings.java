package org.cloudtalk.hadoop.hint;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.api.EvaluatorName;

/**
 * How a Hadoop plugin talks to its local CloudTalk server, from {@code cloudtalk.*} keys (docs/hadoop-plugins.md).
 * Bad values are {@link IllegalArgumentException}s saying {@code Invalid value V for K: reason}.
 */
public record HintSettings(
        URI server, Duration deadline, EvaluatorName evaluator, int threads, Duration backoff, Duration logInterval) {
    public static final String SERVER_URI = "cloudtalk.server.uri";
    public static final String DEADLINE_MS = "cloudtalk.deadline.ms";
    public static final String EVALUATOR = "cloudtalk.evaluator";
    public static final String THREADS = "cloudtalk.client.threads";
    public static final String BACKOFF_MS = "cloudtalk.backoff.ms";
    public static final String LOG_INTERVAL_MS = "cloudtalk.fallback.log.interval.ms";

    private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");
    private static final Pattern SIZE = Pattern.compile("-?[0-9]+[kKmMgGtTpPeE]?");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]*\\.?[0-9]+");

    public static final String DEFAULT_SERVER_URI = "http://127.0.0.1:7480";
    public static final long DEFAULT_DEADLINE_MS = 10;

    public HintSettings {
        requireNonNull(server, "server is null");
        requireNonNull(deadline, "deadline is null");
        requireNonNull(evaluator, "evaluator is null");
        requireNonNull(backoff, "backoff is null");
        requireNonNull(logInterval, "logInterval is null");
    }

    public static HintSettings from(Configuration conf) {
        return from(conf, DEFAULT_DEADLINE_MS);
    }

    /**
     * As {@link #from(Configuration)}, with a plugin's own default deadline: one that asks off its host's hot path
     * (the ResourceManager's node sorter, a job's split computation) can afford more than the NameNode's per block.
     */
    public static HintSettings from(Configuration conf, long defaultDeadlineMs) {
        return new HintSettings(
                uri(conf),
                Duration.ofMillis(number(conf, DEADLINE_MS, defaultDeadlineMs, 1, 60_000)),
                evaluator(conf, EVALUATOR, "refined"),
                (int) number(conf, THREADS, 16, 1, 1024),
                Duration.ofMillis(number(conf, BACKOFF_MS, 1000, 0, 3_600_000)),
                Duration.ofMillis(number(conf, LOG_INTERVAL_MS, 60_000, 0, 86_400_000)));
    }

    /** A whole number within bounds, or the default when the key is unset. */
    public static long number(Configuration conf, String key, long defaultValue, long min, long max) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        long number;
        try {
            // As written in a site file: Long.parseLong alone would also take "+5" and other scripts' digits.
            if (!WHOLE.matcher(value).matches()) {
                throw new NumberFormatException();
            }
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(value, key, "not a whole number");
        }
        if (number < min || number > max) {
            throw invalid(value, key, "must be between " + min + " and " + max);
        }
        return number;
    }

    /**
     * A size in bytes as Hadoop's own size keys take it ({@code dfs.blocksize}): digits with an optional binary suffix
     * {@code k m g t p e} in either case ({@code 128m}), or the default when the key is unset.
     */
    public static long bytes(Configuration conf, String key, long defaultValue, long min, long max) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        long number;
        try {
            if (!SIZE.matcher(value).matches()) {
                throw new IllegalArgumentException();
            }
            number = StringUtils.TraditionalBinaryPrefix.string2long(value);
        } catch (IllegalArgumentException e) { // also a size over what a long holds
            throw invalid(value, key, "not a size in bytes (digits, optionally followed by k, m, g, t, p or e)");
        }
        if (number < min || number > max) {
            throw invalid(value, key, "must be between " + min + " and " + max + " bytes");
        }
        return number;
    }

    /** A number strictly between 0 and 1, or the default when the key is unset. */
    public static double fraction(Configuration conf, String key, double defaultValue) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        if (!DECIMAL.matcher(value).matches()) {
            // Double.parseDouble alone would also take 0.5d, 0x1p-1 and 5e-1.
            throw invalid(value, key, "not a plain decimal number");
        }
        double number = Double.parseDouble(value);
        if (!(number > 0 && number < 1)) {
            throw invalid(value, key, "must be between 0 and 1, exclusive");
        }
        return number;
    }

    /** {@code true} or {@code false}, or the default when the key is unset. */
    public static boolean flag(Configuration conf, String key, boolean defaultValue) {
        String value = conf.getTrimmed(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(value, key, "must be true or false");
        };
    }

    /**
     * A key's text, or the default when the key is unset or blank: a blank value means the default for every key (as
     * for the numbers), not a value to refuse.
     */
    public static String text(Configuration conf, String key, String defaultValue) {
        String value = conf.getTrimmed(key);
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    public static IllegalArgumentException invalid(String value, String key, String reason) {
        return new IllegalArgumentException("Invalid value " + value + " for " + key + ": " + reason);
    }

    private static URI uri(Configuration conf) {
        String value = text(conf, SERVER_URI, DEFAULT_SERVER_URI);
        try {
            return CloudTalkClient.serverBase(value);
        } catch (IllegalArgumentException e) {
            throw invalid(value, SERVER_URI, e.getMessage());
        }
    }

    /** An evaluator's name ({@link EvaluatorName#forPlugins}), or the default when the key is unset. */
    public static EvaluatorName evaluator(Configuration conf, String key, String defaultValue) {
        String value = text(conf, key, defaultValue);
        return EvaluatorName.forPlugins(value)
                .orElseThrow(() -> invalid(value, key, "must be heuristic, flow, exhaustive or refined"));
    }

    /** These settings with another evaluator, for a plugin path that has a key of its own. */
    public HintSettings withEvaluator(EvaluatorName other) {
        return new HintSettings(server, deadline, other, threads, backoff, logInterval);
    }
}
