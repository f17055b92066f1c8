package org.cloudtalk.server.topology;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A static network topology (docs/topology.md): hosts in racks, racks in pods, pods on one core. Each tier says how its
 * links run: {@code host} links join hosts to their rack switch, {@code rack} links join rack switches to their pod
 * switch, {@code pod} links join pod switches to the core. Hosts the topology does not list attach to the core
 * directly with host-tier links: the full-bisection network every evaluator assumes without a topology.
 *
 * <p>Immutable.
 */
public final class Topology {
    /** The tiers in file order of importance; their names are the file's keywords. */
    public enum TierName {
        HOST,
        RACK,
        POD
    }

    /** How much a switch port holds: a number of packets or of bytes. */
    public record Buffer(long amount, boolean packets) {
        public Buffer {
            if (amount < 1) {
                throw new IllegalArgumentException("a buffer holds at least one packet or byte: " + amount);
            }
        }

        /** ns-3's queue size notation: {@code 50p} or {@code 65536B}. */
        public String ns3() {
            return amount + (packets ? "p" : "B");
        }
    }

    /**
     * One tier's links: a fixed rate in bytes/s, or (rack and pod tiers) an oversubscription ratio of the capacity
     * beneath; a one-way latency in seconds; the buffer of each switch port on these links.
     */
    public record Tier(OptionalDouble rate, OptionalDouble oversubscription, double latencySeconds, Buffer buffer) {
        public Tier {
            requireNonNull(rate, "rate is null");
            requireNonNull(oversubscription, "oversubscription is null");
            requireNonNull(buffer, "buffer is null");
            if (rate.isPresent() == oversubscription.isPresent()) {
                throw new IllegalArgumentException("a tier has either a rate or an oversubscription");
            }
        }
    }

    /** A rack: its name, the pod it is in, its hosts (canonical address text). */
    public record Rack(String name, String pod, List<String> hosts) {
        public Rack {
            requireNonNull(name, "name is null");
            requireNonNull(pod, "pod is null");
            hosts = List.copyOf(hosts);
        }
    }

    private final Tier host;
    private final Tier rack;
    private final Tier pod;
    private final List<Rack> racks;
    private final Map<String, Rack> rackByHost = new HashMap<>();

    public Topology(Tier host, Tier rack, Tier pod, List<Rack> racks) {
        this.host = requireNonNull(host, "host is null");
        this.rack = requireNonNull(rack, "rack is null");
        this.pod = requireNonNull(pod, "pod is null");
        this.racks = List.copyOf(racks);
        if (host.rate().isEmpty()) {
            throw new IllegalArgumentException("the host tier needs a rate");
        }
        for (Rack r : this.racks) {
            for (String h : r.hosts()) {
                if (rackByHost.putIfAbsent(h, r) != null) {
                    throw new IllegalArgumentException("host " + h + " is in two racks");
                }
            }
        }
    }

    public Tier host() {
        return host;
    }

    public Tier rack() {
        return rack;
    }

    public Tier pod() {
        return pod;
    }

    public List<Rack> racks() {
        return racks;
    }

    /** The rack of a host, empty for hosts the topology does not list. */
    public Optional<Rack> rackOf(String address) {
        return Optional.ofNullable(rackByHost.get(address));
    }

    /** A rack switch's uplink rate in bytes/s: the tier's rate, or its hosts' capacity over the oversubscription. */
    public double rackUplinkRate(Rack of) {
        return rack.rate()
                .orElseGet(() ->
                        of.hosts().size() * hostRate() / rack.oversubscription().getAsDouble());
    }

    /** A pod switch's uplink rate in bytes/s, likewise from its racks' uplinks. */
    public double podUplinkRate(String podName) {
        if (pod.rate().isPresent()) {
            return pod.rate().getAsDouble();
        }
        double beneath = racks.stream()
                .filter(r -> r.pod().equals(podName))
                .mapToDouble(this::rackUplinkRate)
                .sum();
        return beneath / pod.oversubscription().getAsDouble();
    }

    public double hostRate() {
        return host.rate().getAsDouble();
    }
}
