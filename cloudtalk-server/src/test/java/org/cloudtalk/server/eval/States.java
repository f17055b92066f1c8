package org.cloudtalk.server.eval;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.cloudtalk.lang.parser.QueryParser;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/** Test helper: hand-made and random cluster states, and queries. */
public final class States {
    public static final double MIB = 1 << 20;

    private States() {}

    public static QueryModel model(String query) {
        return new QueryModel(new QueryParser().parse(query));
    }

    /** Network and disk capacities {@code capacity} bytes/s, with the given uses. */
    public static HostLoad host(double capacity, double rxUse, double txUse, double readUse, double writeUse) {
        return new HostLoad(capacity, rxUse, capacity, txUse, capacity, readUse, capacity, writeUse);
    }

    public static HostLoad idle(double capacity) {
        return host(capacity, 0, 0, 0, 0);
    }

    public static ClusterState state(Map<String, HostLoad> hosts) {
        return new ClusterState(hosts);
    }

    /**
     * The paper's §5.1 setup: equal capacities, inelastic background use in each direction drawn independently,
     * uniform on 0-90% or bimodal (mostly idle or mostly busy); disks ample.
     */
    public static ClusterState random(Random random, List<String> hosts, double capacity, boolean bimodal) {
        Map<String, HostLoad> loads = new HashMap<>();
        for (String host : hosts) {
            double rx = fraction(random, bimodal) * capacity;
            double tx = fraction(random, bimodal) * capacity;
            loads.put(host, new HostLoad(capacity, rx, capacity, tx, 10 * capacity, 0, 10 * capacity, 0));
        }
        return new ClusterState(loads);
    }

    /** Hosts of equal capacity with each direction's network and disk use drawn uniform on 0-90%. */
    public static Map<String, HostLoad> busy(Random random, List<String> hosts, double capacity) {
        Map<String, HostLoad> loads = new HashMap<>();
        for (String host : hosts) {
            loads.put(
                    host,
                    new HostLoad(
                            capacity,
                            random.nextDouble() * 0.9 * capacity,
                            capacity,
                            random.nextDouble() * 0.9 * capacity,
                            capacity,
                            random.nextDouble() * 0.9 * capacity,
                            capacity,
                            random.nextDouble() * 0.9 * capacity));
        }
        return loads;
    }

    private static double fraction(Random random, boolean bimodal) {
        if (!bimodal) {
            return random.nextDouble() * 0.9;
        }
        return random.nextBoolean() ? random.nextDouble() * 0.1 : 0.8 + random.nextDouble() * 0.1;
    }
}
