package org.cloudtalk.testbed.solr;

import java.net.URI;
import java.util.Map;

/**
 * How the aggregating node picks each shard's replica, as the {@code solr-replicas} experiment compares them: the
 * shard handler factory in its solr.xml and the parameters each request carries.
 */
public enum ReplicaChoice {
    /** Solr's default: the replicas of a shard shuffled at random per request. */
    SOLR_DEFAULT("solr-default", "HttpShardHandlerFactory", Map.of()),
    /**
     * Solr's static rules: non-leader replicas first (leaders also do the indexing work, the usual advice), then the
     * default shuffle. No rule of {@code shards.preference} sees how busy a host is.
     */
    SHARDS_PREFERENCE(
            "shards-preference", "HttpShardHandlerFactory", Map.of("shards.preference", "replica.leader:false")),
    /** An ARS-like baseline: C3's ranking over this node's own response times (the plugin's baseline package). */
    ARS_LIKE("ars-like-c3", "org.cloudtalk.solr.baseline.C3ShardHandlerFactory", Map.of()),
    /** The CloudTalk plugin, at its defaults but for the deadline. */
    CLOUDTALK("cloudtalk", "org.cloudtalk.solr.CloudTalkShardHandlerFactory", Map.of());

    private final String label;
    private final String factoryClass;
    private final Map<String, String> requestParameters;

    ReplicaChoice(String label, String factoryClass, Map<String, String> requestParameters) {
        this.label = label;
        this.factoryClass = factoryClass;
        this.requestParameters = requestParameters;
    }

    public String label() {
        return label;
    }

    /** Parameters every request sends. */
    public Map<String, String> requestParameters() {
        return requestParameters;
    }

    /** The {@code <shardHandlerFactory>} element of the aggregating node's solr.xml. */
    String shardHandlerFactory(URI cloudTalkServer) {
        StringBuilder xml = new StringBuilder("  <shardHandlerFactory name=\"shardHandlerFactory\" class=\"")
                .append(factoryClass)
                .append("\">\n");
        if (this == CLOUDTALK) {
            xml.append("    <str name=\"cloudtalk.server\">")
                    .append(cloudTalkServer)
                    .append("</str>\n")
                    // The default 5 ms assumes a server on an idle host; this 2-core machine runs every JVM of the
                    // experiment, and a late answer would only make the plugin fall back to Solr's default.
                    .append("    <int name=\"cloudtalk.deadline.ms\">25</int>\n");
        }
        return xml.append("  </shardHandlerFactory>\n").toString();
    }
}
