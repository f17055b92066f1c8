package org.cloudtalk.server.query;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the query path for a moment before the API opens. Cold, the first query after a start took 110-160 ms in all
 * (class loading, the interpreter), ten times a warm one: its status replies missed the gather wait and it was answered
 * as if every host were heavily loaded. Warm-up queries run with every in-process evaluator over made-up hosts (TEST-NET-1
 * addresses) with an in-memory status source: no datagram leaves, and no reservation or metric is touched.
 */
public final class Warmup {
    private static final Logger log = LoggerFactory.getLogger(Warmup.class);
    private static final int HOSTS = 20;
    private static final String[] QUERIES = {
        "r2 = r3 = (%s)\nf1 192.0.2.100 -> r2 size 256M\nf2 r2 -> r3 size sz(f1) transfer t(f1)",
        "A = (%s)\nf1 disk -> A size 64M rate r(f2)\nf2 A -> 192.0.2.100 size 64M rate r(f1)",
        "R1 = R2 = (%s)\nf1 R1 -> 192.0.2.100 size 1G\nf2 R2 -> 192.0.2.100 size 1G",
    };

    /**
     * Every evaluator that runs in this JVM. Not {@code packet}: its simulations are separate processes over a
     * configured topology, so there is nothing of it here to warm up (and without a topology it cannot answer).
     */
    static final List<EvaluatorName> WARMED = Arrays.stream(EvaluatorName.values())
            .filter(kind -> kind != EvaluatorName.PACKET)
            .toList();

    private Warmup() {}

    /**
     * Answers each warm-up query with each evaluator once, then more until {@code budget} has passed; returns how many
     * it answered.
     */
    public static int run(Duration budget) {
        long start = System.nanoTime();
        StatusSource idle = new StatusSource() {
            @Override
            public Gathered gather(Set<Address> addresses, Duration wait) {
                Map<String, HostLoad> loads = new HashMap<>();
                int i = 0;
                for (Address address : addresses) {
                    double capacity = 1e8 + 1e6 * (i++ % 7);
                    loads.put(address.text(), new HostLoad(capacity, 0, capacity, capacity / 3, 2e8, 0, 2e8, 0));
                }
                return new Gathered(new ClusterState(loads), addresses.size(), addresses.size(), 0);
            }
        };
        QueryService service =
                // The default limits, not the tenants': warm-up queries must not be refused by a tight configuration.
                new QueryService(
                        idle,
                        idle,
                        Duration.ZERO,
                        TenantLimits.DEFAULT,
                        Sampling.DEFAULT,
                        new Reservations(Duration.ZERO));
        StringBuilder candidates = new StringBuilder();
        for (int i = 1; i <= HOSTS; i++) {
            candidates.append(i == 1 ? "" : " ").append("192.0.2.").append(i);
        }
        int answered = 0;
        try {
            int everyKindOnce = QUERIES.length * WARMED.size();
            while (answered < everyKindOnce || System.nanoTime() - start < budget.toNanos()) {
                String query = String.format(QUERIES[answered % QUERIES.length], candidates);
                EvaluatorName kind = WARMED.get((answered / QUERIES.length) % WARMED.size());
                service.answer(query, new QueryService.Options("warm-up", kind, false, Duration.ofSeconds(5), true));
                answered++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // Warm-up only speeds the first real queries up; a query it cannot answer must not stop the server.
            log.warn("warm-up query failed; continuing without warm-up", e);
        }
        log.info("warmed up with {} queries in {} ms", answered, (System.nanoTime() - start) / 1_000_000);
        return answered;
    }
}
