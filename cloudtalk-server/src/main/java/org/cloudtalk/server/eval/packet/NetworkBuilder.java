package org.cloudtalk.server.eval.packet;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.cloudtalk.server.eval.Binding;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.topology.Topology;

/**
 * Builds the network one binding's flows run over: the hosts they touch, their rack and pod switches and the core,
 * with each tier's rate, latency and port buffers. Hosts the topology does not list (all of them without one) attach
 * to the core with host-tier links. The rest of the data centre is idle in a static-information simulation, so it is
 * left out; uplink rates still follow whole racks and pods.
 */
final class NetworkBuilder {
    /** Host links without a topology: 1 Gbps, 10 µs, 100-packet ports. */
    static final Topology.Tier DEFAULT_HOST_TIER = new Topology.Tier(
            OptionalDouble.of(125_000_000), OptionalDouble.empty(), 10e-6, new Topology.Buffer(100, true));

    /**
     * A host's own transmit queue: Linux's default {@code txqueuelen}. The topology's buffers are switch ports; a host
     * does not drop what its own sockets send at a 50-packet port (its kernel queues them, and TCP small queues hold
     * the rest in the sockets), so an aggregator forwarding many results at once queues them rather than losing them.
     */
    static final String HOST_NIC_QUEUE = "1000p";

    private final Optional<Topology> topology;
    private final Topology.Tier hostTier;

    NetworkBuilder(Optional<Topology> topology) {
        this.topology = requireNonNull(topology, "topology is null");
        this.hostTier = topology.map(Topology::host).orElse(DEFAULT_HOST_TIER);
    }

    SimulationInput build(QueryModel model, List<FlowPlan.Planned> plan, Binding binding) {
        Network network = new Network();
        List<SimulationInput.Flow> flows = new ArrayList<>();
        for (FlowPlan.Planned planned : plan) {
            int source = network.host(model.resolve(planned.flow().source(), binding));
            int destination = network.host(model.resolve(planned.flow().destination(), binding));
            flows.add(new SimulationInput.Flow(
                    planned.id(), source, destination, planned.bytes(), planned.startNanos(), planned.after()));
        }
        return new SimulationInput(network.nodes, network.links, flows);
    }

    /** Node numbering: each node gets the next number when first needed; node 0 is the core. */
    private final class Network {
        private final Map<String, Integer> hosts = new LinkedHashMap<>();
        private final Map<String, Integer> racks = new HashMap<>();
        private final Map<String, Integer> pods = new HashMap<>();
        private final List<SimulationInput.Link> links = new ArrayList<>();
        private int nodes = 1;

        int host(String address) {
            Integer known = hosts.get(address);
            if (known != null) {
                return known;
            }
            int node = nodes++;
            hosts.put(address, node);
            Optional<Topology.Rack> rack = topology.flatMap(t -> t.rackOf(address));
            int up = rack.isPresent() ? rack(rack.get()) : 0;
            link(node, up, hostTier.rate().getAsDouble(), hostTier, HOST_NIC_QUEUE);
            return node;
        }

        private int rack(Topology.Rack rack) {
            Integer known = racks.get(rack.name());
            if (known != null) {
                return known;
            }
            Topology t = topology.orElseThrow();
            int node = nodes++;
            racks.put(rack.name(), node);
            link(
                    node,
                    pod(rack.pod()),
                    t.rackUplinkRate(rack),
                    t.rack(),
                    t.rack().buffer().ns3());
            return node;
        }

        private int pod(String pod) {
            Integer known = pods.get(pod);
            if (known != null) {
                return known;
            }
            Topology t = topology.orElseThrow();
            int node = nodes++;
            pods.put(pod, node);
            link(node, 0, t.podUplinkRate(pod), t.pod(), t.pod().buffer().ns3());
            return node;
        }

        /** A link from node {@code a} up to switch {@code b}: {@code b}'s port holds the tier's buffer. */
        private void link(int a, int b, double bytesPerSecond, Topology.Tier tier, String bufferA) {
            links.add(new SimulationInput.Link(
                    a,
                    b,
                    Math.max(1, Math.round(bytesPerSecond * 8)),
                    Math.round(tier.latencySeconds() * 1e9),
                    bufferA,
                    tier.buffer().ns3()));
        }
    }
}
