package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.testbed.TestbedException;

/**
 * How to run one YARN cluster: the node order ({@link YarnPlacement}), the CloudTalk server its ResourceManager plugin
 * asks (required for {@link YarnPlacement#CLOUDTALK}, refused otherwise), and yarn-site.xml settings applied last.
 */
public record YarnSettings(YarnPlacement placement, Optional<URI> cloudTalkServer, Map<String, String> overrides) {
    public YarnSettings {
        requireNonNull(placement, "placement is null");
        requireNonNull(cloudTalkServer, "cloudTalkServer is null");
        overrides = Map.copyOf(overrides);
        if ((placement == YarnPlacement.CLOUDTALK) != cloudTalkServer.isPresent()) {
            throw new TestbedException("placement " + placement.label()
                    + (cloudTalkServer.isPresent()
                            ? " asks no CloudTalk server, but one was given"
                            : " needs a CloudTalk server"));
        }
    }

    public static YarnSettings stock(YarnPlacement placement) {
        return new YarnSettings(placement, Optional.empty(), Map.of());
    }

    public static YarnSettings cloudTalk(URI server) {
        return new YarnSettings(YarnPlacement.CLOUDTALK, Optional.of(server), Map.of());
    }

    public YarnSettings withOverrides(Map<String, String> settings) {
        return new YarnSettings(placement, cloudTalkServer, settings);
    }
}
