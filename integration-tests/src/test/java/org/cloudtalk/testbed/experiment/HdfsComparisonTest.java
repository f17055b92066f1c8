package org.cloudtalk.testbed.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.FileWrite;
import org.cloudtalk.testbed.hadoop.HdfsPlacement;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;

/** The HDFS experiments' arithmetic on recorded writes, without a testbed. */
class HdfsComparisonTest {
    private static final Host WRITER = Host.of("t", 77, 1);
    private static final Host BUSY = Host.of("t", 77, 2);
    private static final Host IDLE = Host.of("t", 77, 3);

    private static FileWrite write(long startMillis, String error, String... replicas) {
        return new FileWrite("/w/f" + startMillis, 1, startMillis, 1.0, List.of(List.of(replicas)), error);
    }

    @Test
    void aFileCountsInThePeriodItStartedIn() {
        assertThat(HdfsComparison.inPeriod("w", write(99, "", IDLE.address()), 100, 200, "hot"))
                .isEqualTo("w-before");
        assertThat(HdfsComparison.inPeriod("w", write(100, "", IDLE.address()), 100, 200, "hot"))
                .isEqualTo("w-hot");
        assertThat(HdfsComparison.inPeriod("w", write(200, "", IDLE.address()), 100, 200, "hot"))
                .isEqualTo("w-after");
    }

    @Test
    void sharesCountReplicasAndSuccessfulFilesOnly() {
        List<FileWrite> writes = List.of(
                write(1, "", WRITER.address(), BUSY.address(), IDLE.address()),
                write(2, "", IDLE.address(), BUSY.address(), BUSY.address()),
                write(3, "java.io.IOException: lost"));
        assertThat(HdfsComparison.replicasOnPercent(writes, List.of(BUSY))).isEqualTo(50.0);
        assertThat(HdfsComparison.replicasOnPercent(List.of(), List.of(BUSY))).isZero();

        Measurement local = HdfsComparison.writerLocal(Map.of(WRITER, writes), HdfsPlacement.CLOUDTALK);
        assertThat(local.metric()).isEqualTo("writer-local-replica-%-cloudtalk");
        assertThat(local.value()).isEqualTo(50.0);
        assertThat(local.subject()).isEqualTo("2 files");
    }

    @Test
    void noneFailedNamesTheFirstFailure() {
        Check ok = HdfsComparison.noneFailed("x write", List.of("", ""), e -> e);
        assertThat(ok.passed()).isTrue();
        assertThat(ok.detail()).isEqualTo("2 done");
        Check failed = HdfsComparison.noneFailed("x write", List.of("", "boom", "bang"), e -> e);
        assertThat(failed.passed()).isFalse();
        assertThat(failed.name()).isEqualTo("no x write fails");
        assertThat(failed.detail()).isEqualTo("2 failed, e.g. boom");
    }
}
