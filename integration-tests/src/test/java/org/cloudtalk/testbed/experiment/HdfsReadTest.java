package org.cloudtalk.testbed.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.cloudtalk.testbed.hadoop.FileRead;
import org.junit.jupiter.api.Test;

class HdfsReadTest {
    private static FileRead read(String path, long startMillis, double seconds, String dataNode) {
        return new FileRead(path, 1, startMillis, seconds, dataNode, "");
    }

    @Test
    void aReadAloneOnItsDataNodeSharedNothing() {
        FileRead alone = read("/a", 0, 6, "10.0.0.1");
        FileRead elsewhere = read("/b", 1000, 6, "10.0.0.2");

        assertThat(HdfsRead.sharedSourceSeconds(alone, List.of(alone, elsewhere)))
                .isZero();
    }

    @Test
    void overlapsWithOtherReadsOfItsDataNodeCountOnceEach() {
        FileRead read = read("/a", 0, 10, "10.0.0.1");
        // 2-5 s and 4-7 s overlap each other: together 2-7 s; 9-12 s adds 9-10 s.
        List<FileRead> all = List.of(
                read,
                read("/b", 2000, 3, "10.0.0.1"),
                read("/c", 4000, 3, "10.0.0.1"),
                read("/d", 9000, 3, "10.0.0.1"),
                read("/e", 0, 10, "10.0.0.2"));

        assertThat(HdfsRead.sharedSourceSeconds(read, all)).isCloseTo(6.0, within(1e-9));
    }

    @Test
    void aReadWithoutAKnownDataNodeSharesWithNone() {
        FileRead unknown = read("/a", 0, 6, "");

        assertThat(HdfsRead.sharedSourceSeconds(unknown, List.of(unknown, read("/b", 0, 6, ""))))
                .isZero();
    }

    @Test
    void aSecondReaderOnABusySourceIsAvoidableOnlyWhileAnotherReplicaIsIdle() {
        FileRead first = read("/a", 0, 6, "10.0.0.1");
        FileRead second = read("/b", 1000, 6, "10.0.0.1");
        FileRead onTheOther = read("/c", 500, 6, "10.0.0.2");

        // /b's other replica, 10.0.0.2, serves /c from 0.5 s: busy when /b begins.
        Map<String, List<String>> replicas = Map.of("/b", List.of("10.0.0.1", "10.0.0.2"));
        assertThat(HdfsRead.avoidablyShared(second, List.of(first, second, onTheOther), replicas))
                .isFalse();
        // Without /c, 10.0.0.2 is idle: the second reader could have gone there.
        assertThat(HdfsRead.avoidablyShared(second, List.of(first, second), replicas))
                .isTrue();
        // A read that begins on an idle source shares nothing avoidable.
        assertThat(HdfsRead.avoidablyShared(
                        first, List.of(first, second), Map.of("/a", List.of("10.0.0.1", "10.0.0.2"))))
                .isFalse();
    }
}
