package org.cloudtalk.solr.replica;

/** A plugin setting that cannot be used: {@code Invalid value V for K: reason}. */
public final class ConfigException extends IllegalArgumentException {
    public ConfigException(String key, String value, String reason) {
        super("Invalid value " + value + " for " + key + ": " + reason);
    }
}
