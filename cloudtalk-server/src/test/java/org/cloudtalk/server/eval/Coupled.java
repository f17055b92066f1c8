package org.cloudtalk.server.eval;

import java.util.HashMap;
import java.util.Map;
import org.cloudtalk.server.state.HostLoad;

/** Test helper: issue 16's rate-coupled pairs, and long chains of rate references. */
public final class Coupled {
    /** Two coupled pairs; {@code %s} are the receivers of f2 and f4 (10.9.0.3 in the issue). */
    public static final String FLOWS =
            """
            f1 disk -> 10.9.0.1 size 100M rate r(f2)
            f2 10.9.0.1 -> %s size 100M rate r(f1)
            f3 disk -> 10.9.0.2 size 100M rate r(f4)
            f4 10.9.0.2 -> %s size 100M rate r(f3)
            """;

    private Coupled() {}

    /**
     * NICs of 1e9 bit/s, disks reading 150e6 and writing 120e6 bytes/s, all idle but 10.9.0.1's disk (100e6 read);
     * and 10.9.0.4, whose NIC receives only 60e6 bytes/s.
     */
    public static Map<String, HostLoad> hosts() {
        HostLoad idle = new HostLoad(125e6, 0, 125e6, 0, 150e6, 0, 120e6, 0);
        return Map.of(
                "10.9.0.1",
                new HostLoad(125e6, 0, 125e6, 0, 150e6, 100e6, 120e6, 0),
                "10.9.0.2",
                idle,
                "10.9.0.3",
                idle,
                "10.9.0.4",
                new HostLoad(60e6, 0, 125e6, 0, 150e6, 0, 120e6, 0));
    }

    /**
     * {@code flows} flows along a chain of hosts, each held to the rate of the one before, sizes shrinking along the
     * chain so that every flow's end is an event of its own. The hosts' links widen along the chain ({@link
     * #chainHosts}), so the first flow's rate has to be carried down the whole chain: costly to estimate.
     */
    public static String rateChain(int flows) {
        StringBuilder query = new StringBuilder();
        for (int i = 1; i <= flows; i++) {
            query.append("f%d %s -> %s size %dM".formatted(i, chainHost(i - 1), chainHost(i), flows - i + 1));
            query.append(i == 1 ? "\n" : " rate r(f%d)\n".formatted(i - 1));
        }
        return query.toString();
    }

    public static Map<String, HostLoad> chainHosts(int flows) {
        Map<String, HostLoad> hosts = new HashMap<>();
        for (int i = 0; i <= flows; i++) {
            double capacity = 1e8 * (1 + (double) i / flows);
            hosts.put(chainHost(i), new HostLoad(capacity, 0, capacity, 0, capacity, 0, capacity, 0));
        }
        return hosts;
    }

    private static String chainHost(int i) {
        return "10.8." + (i / 250) + "." + (i % 250 + 1);
    }
}
