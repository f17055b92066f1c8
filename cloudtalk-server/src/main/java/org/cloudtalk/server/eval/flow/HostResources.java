package org.cloudtalk.server.eval.flow;

import java.util.List;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * The resources a flow between two resolved endpoints uses, named {@code "<host> tx|rx|disk-read|disk-write"}, and
 * how much of each a cluster state leaves available. A network flow uses its source's transmit and its destination's
 * receive capacity (an unknown source only the latter); a disk flow its host's disk read or write capacity; a flow
 * between a host and itself uses nothing.
 */
public final class HostResources {
    private HostResources() {}

    public static List<String> used(String source, String destination) {
        if (source.equals(QueryModel.DISK)) {
            return List.of(destination + " disk-read");
        }
        if (destination.equals(QueryModel.DISK)) {
            return List.of(source + " disk-write");
        }
        if (source.equals(destination)) {
            return List.of();
        }
        return source.equals(QueryModel.UNKNOWN_SOURCE)
                ? List.of(destination + " rx")
                : List.of(source + " tx", destination + " rx");
    }

    /** Bytes/s available; a disk-to-disk flow's "host" is the disk itself, effectively unlimited. */
    public static double available(ClusterState state, String resource) {
        int space = resource.lastIndexOf(' ');
        String host = resource.substring(0, space);
        if (host.equals(QueryModel.DISK)) {
            return FlowEstimator.LOCAL_RATE;
        }
        HostLoad load = state.load(host);
        return switch (resource.substring(space + 1)) {
            case "tx" -> load.txAvailable();
            case "rx" -> load.rxAvailable();
            case "disk-read" -> load.diskReadAvailable();
            default -> load.diskWriteAvailable();
        };
    }
}
