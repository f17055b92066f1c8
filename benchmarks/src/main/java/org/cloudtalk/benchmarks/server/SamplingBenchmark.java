package org.cloudtalk.benchmarks.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.cloudtalk.benchmarks.BenchArgs;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.server.query.QueryService;
import org.cloudtalk.server.query.Reservations;
import org.cloudtalk.server.query.Sampling;
import org.cloudtalk.server.query.TenantLimits;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.cloudtalk.server.status.StatusSource;

/**
 * §5.2 / Figure 4: how many servers n must be sampled so that the best d of them are all idle, when 30% of
 * N = 100,000 servers are idle and the rest saturated, at 90%, 99% and 99.9% confidence — by simulation. Each trial
 * draws servers at random without replacement and records where the d-th idle one turns up; n for a confidence is that
 * position's quantile over the trials.
 *
 * <p>Then the paper's EC2 check through the real query path: place 2 replicas among 300 hosts (30% idle) with the
 * server sampling 19 of them; count answers that include a saturated host ("unfortunate choices", < 1% predicted).
 */
public final class SamplingBenchmark {
    private static final int SERVERS = 100_000;
    private static final double IDLE = 0.3;
    private static final int MAX_D = 25;
    private static final double[] CONFIDENCE = {0.90, 0.99, 0.999};

    private SamplingBenchmark() {}

    public static void main(String[] args) throws Exception {
        int trials = BenchArgs.count(args, 0, "TRIALS", 100_000);
        int queries = BenchArgs.count(args, 1, "QUERIES", 10_000);
        Random random = new Random(BenchArgs.seed(args, 2, "SEED", 20261120L));
        figure4(random, trials);
        ec2Check(queries);
    }

    private static void figure4(Random random, int trials) {
        boolean[] idle = new boolean[SERVERS];
        for (int i = 0; i < SERVERS; i++) {
            idle[i] = random.nextDouble() < IDLE;
        }
        int[][] position = new int[MAX_D][trials];
        Set<Integer> drawn = new HashSet<>();
        for (int t = 0; t < trials; t++) {
            drawn.clear();
            int found = 0;
            for (int n = 1; found < MAX_D; n++) {
                int server;
                do {
                    server = random.nextInt(SERVERS);
                } while (!drawn.add(server));
                if (idle[server]) {
                    position[found++][t] = n;
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "Figure 4: N = %,d servers, %.0f%% idle, %,d trials: servers to sample (n) so that "
                        + "the best d are idle%n",
                SERVERS,
                IDLE * 100,
                trials);
        System.out.println("   d   n@90%   n@99%  n@99.9%   n/d@99%");
        for (int d = 1; d <= MAX_D; d++) {
            int[] sorted = position[d - 1].clone();
            Arrays.sort(sorted);
            int[] needed = new int[CONFIDENCE.length];
            for (int c = 0; c < CONFIDENCE.length; c++) {
                needed[c] = sorted[(int) Math.ceil(CONFIDENCE[c] * trials) - 1];
            }
            if (d <= 5 || d % 5 == 0) {
                System.out.printf(
                        Locale.ROOT,
                        "  %2d  %6d  %6d  %7d   %6.1f%n",
                        d,
                        needed[0],
                        needed[1],
                        needed[2],
                        needed[1] / (double) d);
            }
        }
    }

    private static void ec2Check(int queries) throws Exception {
        List<String> hosts = new ArrayList<>();
        Map<String, HostLoad> loads = new HashMap<>();
        Set<String> idleHosts = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String host = "10.1." + (i / 250) + "." + (i % 250 + 1);
            hosts.add(host);
            boolean idle = i < 90; // exactly 30% idle, as in the paper's cluster
            double use = idle ? 0 : 125e6;
            loads.put(host, new HostLoad(125e6, use, 125e6, use, 5e8, 0, 5e8, 0));
            if (idle) {
                idleHosts.add(host);
            }
        }
        loads.put("10.9.9.9", new HostLoad(125e6, 0, 125e6, 0, 5e8, 0, 5e8, 0));
        StatusSource status = (addresses, wait) -> {
            Map<String, HostLoad> known = new HashMap<>();
            addresses.forEach(address -> known.put(address.text(), loads.get(address.text())));
            return new StatusSource.Gathered(new ClusterState(known), addresses.size(), addresses.size(), 0);
        };
        QueryService service = new QueryService(
                status,
                status,
                Duration.ofMillis(10),
                new TenantLimits(1 << 20, 100, 10, 10_000, 1, 1e9, 1_000_000_000),
                new Sampling(100, 19),
                new Reservations(Duration.ZERO));
        String query = "r2 = r3 = (" + String.join(" ", hosts) + ")\n"
                + "f1 10.9.9.9 -> r2 size 256M\nf2 r2 -> r3 size sz(f1) transfer t(f1)";
        QueryService.Options options =
                new QueryService.Options("bench", EvaluatorName.HEURISTIC, false, Duration.ofSeconds(5), false);
        int poor = 0;
        for (int i = 0; i < queries; i++) {
            Map<String, String> binding =
                    service.answer(query, options).binding().values();
            if (!idleHosts.contains(binding.get("r2")) || !idleHosts.contains(binding.get("r3"))) {
                poor++;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%nEC2 check: 2 replicas from 300 hosts (90 idle), 19 sampled per query: "
                        + "%d of %,d answers chose a saturated host (%.2f%%; the paper predicts < 1%%)%n",
                poor,
                queries,
                100.0 * poor / queries);
    }
}
