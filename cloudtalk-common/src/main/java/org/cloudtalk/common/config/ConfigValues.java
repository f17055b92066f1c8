package org.cloudtalk.common.config;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.cloudtalk.common.io.TextFile;

/**
 * The one configuration parser of the server and the daemon: properties files, and typed values with the messages
 * operators see ({@code Invalid value V for K: reason}).
 */
public final class ConfigValues {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    /** ASCII digits only: Long.parseLong alone would also take "+5" and other scripts' digits. */
    private static final Pattern WHOLE = Pattern.compile("-?[0-9]+");

    /** A configuration file is a few kilobytes: anything near this is not one (and must not exhaust a small heap). */
    private static final int MAX_FILE_BYTES = 1 << 20;

    private ConfigValues() {}

    /** A properties file's keys and values (trimmed); {@code flag} names the option that gave the file. */
    public static Map<String, String> read(Path file, String flag) throws ConfigException {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(TextFile.read(file, MAX_FILE_BYTES)));
        } catch (java.nio.file.NoSuchFileException e) {
            throw ConfigException.invalid(flag, file.toString(), "cannot read it (no such file)"); // else only its path
        } catch (IOException e) {
            throw ConfigException.invalid(flag, file.toString(), "cannot read it (" + e.getMessage() + ")");
        } catch (TextFile.BadTextException e) {
            throw ConfigException.invalid(flag, file.toString(), e.getMessage());
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties
                .stringPropertyNames()
                .forEach(key -> values.put(key, properties.getProperty(key).trim()));
        return values;
    }

    /** @throws ConfigException naming the first key that {@code known} does not accept */
    public static void checkKeys(Map<String, String> values, Predicate<String> known) throws ConfigException {
        for (String key : values.keySet()) {
            if (!known.test(key)) {
                throw new ConfigException("Unknown configuration key " + key);
            }
        }
    }

    /** The key's value, trimmed; empty when it is not set or blank. */
    public static Optional<String> value(Map<String, String> values, String key) {
        String value = values.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    public static long number(Map<String, String> values, String key, long defaultValue, long min, long max)
            throws ConfigException {
        Optional<String> value = value(values, key);
        return value.isEmpty() ? defaultValue : parse(key, value.get(), min, max);
    }

    public static long parse(String key, String value, long min, long max) throws ConfigException {
        long number;
        try {
            if (!WHOLE.matcher(value).matches()) {
                throw new NumberFormatException(value);
            }
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, value, "not a whole number");
        }
        if (number < min || number > max) {
            throw ConfigException.invalid(key, value, "must be between " + min + " and " + max);
        }
        return number;
    }

    public static Optional<Path> path(Map<String, String> values, String key) {
        return value(values, key).map(Path::of);
    }

    public static InetAddress address(Map<String, String> values, String key, String defaultValue)
            throws ConfigException {
        return literal(key, value(values, key).orElse(defaultValue));
    }

    /** An IP literal; never a name, so configuration never waits on DNS. */
    public static InetAddress literal(String key, String value) throws ConfigException {
        if (!IPV4.matcher(value).matches() && value.indexOf(':') < 0) {
            throw ConfigException.invalid(key, value, "not an IP address literal");
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            throw ConfigException.invalid(key, value, "not an IP address literal");
        }
    }
}
