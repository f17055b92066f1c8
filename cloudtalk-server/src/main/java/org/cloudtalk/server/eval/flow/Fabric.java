package org.cloudtalk.server.eval.flow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.server.topology.Topology;

/**
 * The topology's shared links as the flow estimator sees them: each rack switch's uplink to its pod switch and each
 * pod switch's uplink to the core, each direction a resource of the uplink's whole rate. The core switch does not
 * block. Hosts the topology does not list, and the unknown source, sit on the core: their traffic crosses no uplink
 * of theirs, only those of a listed host at the other end.
 *
 * <p>Each uplink's whole rate is available: status covers hosts only, so nothing is known of other tenants' traffic
 * on the fabric, and it is treated as free of background traffic. Racks and pods are numbered once per topology.
 * Immutable.
 */
final class Fabric {
    /** No topology: every host on a full-bisection core. */
    static final Fabric NONE = new Fabric(Optional.empty());

    private final Map<String, Integer> rackOfHost = new HashMap<>();
    private final int[] podOfRack;
    /** Bytes/s of each rack's uplink, and of each pod's. */
    private final double[] rackUplink;

    private final double[] podUplink;

    Fabric(Optional<Topology> topology) {
        List<Topology.Rack> racks = topology.map(Topology::racks).orElse(List.of());
        podOfRack = new int[racks.size()];
        rackUplink = new double[racks.size()];
        Map<String, Integer> pods = new HashMap<>();
        List<String> podNames = new ArrayList<>();
        for (int r = 0; r < racks.size(); r++) {
            Topology.Rack rack = racks.get(r);
            podOfRack[r] = pods.computeIfAbsent(rack.pod(), name -> {
                podNames.add(name);
                return podNames.size() - 1;
            });
            rackUplink[r] = topology.orElseThrow().rackUplinkRate(rack);
            for (String host : rack.hosts()) {
                rackOfHost.put(host, r);
            }
        }
        podUplink = podNames.stream()
                .mapToDouble(name -> topology.orElseThrow().podUplinkRate(name))
                .toArray();
    }

    /** Whether there is no topology to share: every host is on the core. */
    boolean isEmpty() {
        return rackUplink.length == 0;
    }

    /** A host's rack, or -1 if the topology does not list it (it sits on the core). */
    int rack(String host) {
        Integer rack = rackOfHost.get(host);
        return rack == null ? -1 : rack;
    }

    int podOf(int rack) {
        return podOfRack[rack];
    }

    double rackUplink(int rack) {
        return rackUplink[rack];
    }

    double podUplink(int pod) {
        return podUplink[pod];
    }
}
