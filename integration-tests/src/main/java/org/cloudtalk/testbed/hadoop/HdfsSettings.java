package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.testbed.TestbedException;

/**
 * How to run one HDFS cluster: the placement ({@link HdfsPlacement}), the CloudTalk server its NameNode plugins ask
 * (required for {@link HdfsPlacement#CLOUDTALK}, refused otherwise), and hdfs-site.xml settings applied last, to
 * every daemon (e.g. {@code cloudtalk.deadline.ms}, {@code dfs.blocksize}).
 */
public record HdfsSettings(HdfsPlacement placement, Optional<URI> cloudTalkServer, Map<String, String> overrides) {
    public HdfsSettings {
        requireNonNull(placement, "placement is null");
        requireNonNull(cloudTalkServer, "cloudTalkServer is null");
        overrides = Map.copyOf(overrides);
        if (placement == HdfsPlacement.CLOUDTALK && cloudTalkServer.isEmpty()) {
            throw new TestbedException("the cloudtalk placement needs a CloudTalk server for the NameNode to ask");
        }
        if (placement != HdfsPlacement.CLOUDTALK && cloudTalkServer.isPresent()) {
            throw new TestbedException(
                    "placement " + placement.label() + " asks no CloudTalk server, but one was given");
        }
    }

    public static HdfsSettings stock(HdfsPlacement placement) {
        return new HdfsSettings(placement, Optional.empty(), Map.of());
    }

    public static HdfsSettings cloudTalk(URI server) {
        return new HdfsSettings(HdfsPlacement.CLOUDTALK, Optional.of(server), Map.of());
    }

    public HdfsSettings withOverrides(Map<String, String> settings) {
        return new HdfsSettings(placement, cloudTalkServer, settings);
    }
}
