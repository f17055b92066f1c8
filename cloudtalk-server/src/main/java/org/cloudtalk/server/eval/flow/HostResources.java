package org.cloudtalk.server.eval.flow;

import java.util.List;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/**
 * The resources a flow between two resolved endpoints uses, and how much of each a cluster state leaves available. A
 * network flow uses its source's transmit and its destination's receive capacity (an unknown source only the latter);
 * a disk flow its host's disk read or write capacity; a flow between a host and itself uses nothing.
 */
public final class HostResources {
    /** A kind of resource every host has. */
    public enum Kind {
        TX,
        RX,
        DISK_READ,
        DISK_WRITE
    }

    /** A resource a flow uses: one kind, on its source's host or on its destination's. */
    public record Use(boolean onSource, Kind kind) {}

    private static final List<Use> READ_AT_DESTINATION = List.of(new Use(false, Kind.DISK_READ));
    private static final List<Use> WRITE_AT_SOURCE = List.of(new Use(true, Kind.DISK_WRITE));
    private static final List<Use> RECEIVE = List.of(new Use(false, Kind.RX));
    private static final List<Use> SEND_AND_RECEIVE = List.of(new Use(true, Kind.TX), new Use(false, Kind.RX));

    private HostResources() {}

    /** What a flow from {@code source} to {@code destination} (addresses, "disk" or "0.0.0.0") uses. */
    public static List<Use> uses(String source, String destination) {
        return uses(
                source.equals(QueryModel.DISK),
                destination.equals(QueryModel.DISK),
                source.equals(destination),
                source.equals(QueryModel.UNKNOWN_SOURCE));
    }

    /**
     * The same from what the endpoints are, for searches that number endpoints instead of comparing their texts:
     * whether the source is {@code disk}, the destination is, both are the same, the source is unknown.
     */
    public static List<Use> uses(
            boolean sourceIsDisk, boolean destinationIsDisk, boolean sameEndpoint, boolean unknownSource) {
        if (sourceIsDisk) {
            return READ_AT_DESTINATION;
        }
        if (destinationIsDisk) {
            return WRITE_AT_SOURCE;
        }
        if (sameEndpoint) {
            return List.of();
        }
        return unknownSource ? RECEIVE : SEND_AND_RECEIVE;
    }

    /** Bytes/s available; a disk-to-disk flow's "host" is the disk itself, effectively unlimited. */
    public static double available(ClusterState state, String host, Kind kind) {
        if (host.equals(QueryModel.DISK)) {
            return FlowEstimator.LOCAL_RATE;
        }
        HostLoad load = state.estimatedLoad(host);
        return switch (kind) {
            case TX -> load.txAvailable();
            case RX -> load.rxAvailable();
            case DISK_READ -> load.diskReadAvailable();
            case DISK_WRITE -> load.diskWriteAvailable();
        };
    }
}
