package org.cloudtalk.hadoop.hdfs.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scopes as the default policy passes them to {@code chooseDataNode}: a path, or {@code ~path} for outside it. */
class WritePreferenceTest {
    @ParameterizedTest
    @CsvSource({
        "'', /r1, true",
        "/, /r1, true",
        "/r1, /r1, true",
        "/r1, /r10, false",
        "/r1, /r2, false",
        "~/r1, /r2, true",
        "~/r1, /r1, false",
        "~/r1, /r10, true",
        "/dc1, /dc1/r1, true",
        "/dc1/r1/127.0.0.1:9866, /dc1/r1, true",
        "/dc1/r1/127.0.0.2:9866, /dc1/r1, false",
    })
    void aNodeIsInAScopeWhenItsPathIsUnderIt(String scope, String rack, boolean inside) {
        Node node = new NodeBase("127.0.0.1:9866", rack);

        assertThat(WritePreference.inScope(scope, node)).isEqualTo(inside);
    }
}
