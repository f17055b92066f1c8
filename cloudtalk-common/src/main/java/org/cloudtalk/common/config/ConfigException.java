package org.cloudtalk.common.config;

/** A configuration the server or the daemon cannot run with; the message says which key and why. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }

    public static ConfigException invalid(String key, String value, String reason) {
        return new ConfigException("Invalid value " + value + " for " + key + ": " + reason);
    }
}
