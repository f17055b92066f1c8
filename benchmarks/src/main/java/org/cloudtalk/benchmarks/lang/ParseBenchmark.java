package org.cloudtalk.benchmarks.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.build.QueryBuilder;
import org.cloudtalk.lang.parser.QueryParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parse + validate of the paper's HDFS-write query (§5.3: a 3-replica pipeline with disk flows) with 3 variables over
 * 20 candidate addresses. The paper's flex/bison parser took 320 µs for this job; the target is a median ≤ 20 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xmx256m", "-Xms256m"})
public class ParseBenchmark {
    private final QueryParser parser = new QueryParser();
    private String hdfsWrite;

    @Setup
    public void setUp() {
        List<String> candidates = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            candidates.add("10.0.1." + i);
        }
        hdfsWrite = QueryBuilder.daisyChainWrite("10.0.0.100", 3, candidates, 256L << 20)
                .toText();
    }

    @Benchmark
    public Query parseAndValidateHdfsWrite() {
        return parser.parse(hdfsWrite);
    }
}
