package org.cloudtalk.server.eval.packet;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the native helper simulates (its input format is in packet-sim.cc and docs/packet-evaluator.md): nodes
 * {@code 0..nodes-1}, point-to-point links, and TCP flows between nodes.
 */
public record SimulationInput(int nodes, List<Link> links, List<Flow> flows) {
    /** A link; {@code bufferA}/{@code bufferB} are the port buffers at each end, in ns-3's notation (50p, 65536B). */
    public record Link(int a, int b, long bitsPerSecond, long delayNanos, String bufferA, String bufferB) {
        public Link {
            requireNonNull(bufferA, "bufferA is null");
            requireNonNull(bufferB, "bufferB is null");
        }
    }

    /**
     * A transfer of {@code bytes} from {@code source} to {@code destination}, {@code startNanos} after the simulation
     * starts or, with {@code after}, after those flows (listed earlier) finish. A flow whose ends are one node is local:
     * it finishes as it starts.
     */
    public record Flow(String id, int source, int destination, long bytes, long startNanos, List<String> after) {
        public Flow {
            requireNonNull(id, "id is null");
            after = List.copyOf(after);
        }
    }

    public SimulationInput {
        links = List.copyOf(links);
        flows = List.copyOf(flows);
    }

    /** The helper's stdin. */
    public String text() {
        StringBuilder text = new StringBuilder("nodes ").append(nodes).append('\n');
        for (Link link : links) {
            text.append("link ")
                    .append(link.a())
                    .append(' ')
                    .append(link.b())
                    .append(' ')
                    .append(link.bitsPerSecond())
                    .append(' ')
                    .append(link.delayNanos())
                    .append(' ')
                    .append(link.bufferA())
                    .append(' ')
                    .append(link.bufferB())
                    .append('\n');
        }
        for (Flow flow : flows) {
            text.append("flow ")
                    .append(flow.id())
                    .append(' ')
                    .append(flow.source())
                    .append(' ')
                    .append(flow.destination())
                    .append(' ')
                    .append(flow.bytes())
                    .append(' ')
                    .append(flow.startNanos());
            if (!flow.after().isEmpty()) {
                text.append(" after ").append(String.join(" ", flow.after()));
            }
            text.append('\n');
        }
        return text.append("run\n").toString();
    }
}
