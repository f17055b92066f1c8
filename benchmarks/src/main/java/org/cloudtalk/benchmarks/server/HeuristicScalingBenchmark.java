package org.cloudtalk.benchmarks.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.build.QueryBuilder;
import org.cloudtalk.server.eval.Evaluation;
import org.cloudtalk.server.eval.QueryModel;
import org.cloudtalk.server.eval.heuristic.HeuristicEvaluator;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Table 2 of the paper: the heuristic's running time for n candidate hosts and d variables. The query is a daisy
 * chain of d variables over the same n candidates from a fixed writer (each hop forwards no more than it received);
 * host loads are random. Only evaluation is timed (status already gathered), as in the paper's table.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx512m", "-Xms512m"})
public class HeuristicScalingBenchmark {
    @Param({"100", "200", "300", "500", "1000", "2000"})
    public int n;

    @Param({"3", "5", "10", "20", "30"})
    public int d;

    private final HeuristicEvaluator heuristic = new HeuristicEvaluator();
    private QueryModel query;
    private ClusterState state;

    @Setup
    public void setUp() {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hosts.add("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255));
        }
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= d; i++) {
            names.add("X" + i);
        }
        QueryBuilder builder = new QueryBuilder().variables(names, hosts);
        builder.flow("f1", QueryBuilder.host("172.16.0.1"), QueryBuilder.variable("X1"))
                .size(QueryBuilder.bytes(100L << 20));
        for (int i = 2; i <= d; i++) {
            builder.flow("f" + i, QueryBuilder.variable("X" + (i - 1)), QueryBuilder.variable("X" + i))
                    .size(QueryBuilder.sizeOf("f1"))
                    .transfer(QueryBuilder.transferOf("f" + (i - 1)));
        }
        query = new QueryModel(builder.build());
        Random random = new Random(n * 31L + d);
        Map<String, HostLoad> loads = new HashMap<>();
        double capacity = 1.25e9;
        for (String host : hosts) {
            loads.put(
                    host,
                    new HostLoad(
                            capacity,
                            random.nextDouble() * 0.9 * capacity,
                            capacity,
                            random.nextDouble() * 0.9 * capacity,
                            5e8,
                            0,
                            5e8,
                            0));
        }
        loads.put("172.16.0.1", new HostLoad(capacity, 0, capacity, 0, 5e8, 0, 5e8, 0));
        state = new ClusterState(loads);
    }

    @Benchmark
    public Evaluation evaluate() {
        return heuristic.evaluate(query, state);
    }
}
