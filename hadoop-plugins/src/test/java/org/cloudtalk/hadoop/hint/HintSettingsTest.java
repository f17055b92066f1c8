package org.cloudtalk.hadoop.hint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.cloudtalk.client.api.EvaluatorName;
import org.cloudtalk.hadoop.hdfs.HdfsHintSettings;
import org.cloudtalk.hadoop.mapreduce.MapHintSettings;
import org.cloudtalk.hadoop.yarn.YarnHintSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HintSettingsTest {
    @Test
    void defaults() {
        HdfsHintSettings settings = HdfsHintSettings.from(new Configuration(false));

        assertThat(settings.hints().server()).hasToString("http://127.0.0.1:7480");
        assertThat(settings.hints().deadline()).isEqualTo(Duration.ofMillis(10));
        assertThat(settings.hints().backoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.hints().evaluator()).isEqualTo(EvaluatorName.REFINED);
        assertThat(settings.writeEnabled()).isTrue();
        assertThat(settings.readEnabled()).isTrue();
        assertThat(settings.maxCandidates()).isEqualTo(30);
        assertThat(settings.readBytes()).isEqualTo(128L << 20);
        assertThat(settings.blocksPerQuery()).isEqualTo(4);
        assertThat(settings.answerReuse()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.writeHints().evaluator()).isEqualTo(EvaluatorName.HEURISTIC);
        assertThat(settings.writeHints().deadline()).isEqualTo(settings.hints().deadline());
    }

    @ParameterizedTest
    @CsvSource({
        "64m, 67108864",
        "0, 134217728",
        "-1, 134217728",
        "lots, 134217728",
        "4e, 4611686018427387903",
        "9e, 134217728"
    })
    void theReadSizeDefaultsToTheBlockSizeWhereThatIsAPositiveSize(String blockSize, long readBytes) {
        Configuration conf = new Configuration(false);
        conf.set("dfs.blocksize", blockSize == null ? "" : blockSize);

        assertThat(HdfsHintSettings.from(conf).readBytes()).isEqualTo(readBytes);
    }

    @ParameterizedTest
    @CsvSource({"128m, 134217728", "64K, 65536", "1g, 1073741824", "4096, 4096"})
    void theReadSizeTakesSizesAsDfsBlocksizeDoes(String readBytes, long bytes) {
        Configuration conf = new Configuration(false);
        conf.set(HdfsHintSettings.READ_BYTES, readBytes);

        assertThat(HdfsHintSettings.from(conf).readBytes()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource({"http://[::1]:7480", "http://[::1]:7480/", "http://cloudtalk.example:7480"})
    void aServerUriIsAHostAndAPort(String uri) {
        Configuration conf = new Configuration(false);
        conf.set(HintSettings.SERVER_URI, uri);

        assertThat(HintSettings.from(conf).server()).hasToString(uri);
    }

    @Test
    void aBlankValueMeansTheDefaultForEveryKey() {
        Configuration conf = new Configuration(false);
        for (String key : List.of(
                HintSettings.SERVER_URI,
                HintSettings.EVALUATOR,
                HintSettings.DEADLINE_MS,
                HdfsHintSettings.ENDPOINT,
                HdfsHintSettings.WRITE_EVALUATOR,
                HdfsHintSettings.WRITE_ENABLED)) {
            conf.set(key, " ");
        }

        assertThat(HdfsHintSettings.from(conf)).isEqualTo(HdfsHintSettings.from(new Configuration(false)));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "cloudtalk.deadline.ms | soon | Invalid value soon for cloudtalk.deadline.ms: not a whole number",
                "cloudtalk.deadline.ms | 0 | Invalid value 0 for cloudtalk.deadline.ms: must be between 1 and 60000",
                "cloudtalk.deadline.ms | +5 | Invalid value +5 for cloudtalk.deadline.ms: not a whole number",
                "cloudtalk.deadline.ms | ١٢ | Invalid value ١٢ for cloudtalk.deadline.ms: not a whole number",
                "cloudtalk.server.uri | ftp://host:1 | Invalid value ftp://host:1 for cloudtalk.server.uri: expected http://HOST:PORT",
                "cloudtalk.server.uri | http://127.0.0.1:99999 | Invalid value http://127.0.0.1:99999 for cloudtalk.server.uri: expected http://HOST:PORT with a port from 1 to 65535",
                "cloudtalk.server.uri | http://127.0.0.1 | Invalid value http://127.0.0.1 for cloudtalk.server.uri: expected http://HOST:PORT with a port from 1 to 65535",
                "cloudtalk.server.uri | http://127.0.0.1:7480/cloudtalk | Invalid value http://127.0.0.1:7480/cloudtalk for cloudtalk.server.uri: expected http://HOST:PORT and nothing more (queries go to /v1/query)",
                "cloudtalk.server.uri | http://[::1]:7480/v1/query | Invalid value http://[::1]:7480/v1/query for cloudtalk.server.uri: expected http://HOST:PORT and nothing more (queries go to /v1/query)",
                "cloudtalk.server.uri | http://ops@127.0.0.1:7480 | Invalid value http://ops@127.0.0.1:7480 for cloudtalk.server.uri: expected http://HOST:PORT and nothing more (queries go to /v1/query)",
                "cloudtalk.server.uri | http://127.0.0.1:7480?tenant=nn | Invalid value http://127.0.0.1:7480?tenant=nn for cloudtalk.server.uri: expected http://HOST:PORT and nothing more (queries go to /v1/query)",
                "cloudtalk.server.uri | http://::1:7480 | Invalid value http://::1:7480 for cloudtalk.server.uri: expected http://HOST:PORT, and ::1:7480 has no host name a URL can hold (letters, digits, hyphens and dots; an IPv6 address in brackets)",
                "cloudtalk.evaluator | magic | Invalid value magic for cloudtalk.evaluator: must be heuristic, flow, exhaustive or refined",
                "cloudtalk.evaluator | packet | Invalid value packet for cloudtalk.evaluator: must be heuristic, flow, exhaustive or refined",
                "cloudtalk.hdfs.write.enabled | yes | Invalid value yes for cloudtalk.hdfs.write.enabled: must be true or false",
                "cloudtalk.hdfs.endpoint | dns | Invalid value dns for cloudtalk.hdfs.endpoint: must be ip or hostname",
                "cloudtalk.hdfs.candidates.max | 1 | Invalid value 1 for cloudtalk.hdfs.candidates.max: must be between 2 and 10000",
                "cloudtalk.hdfs.write.blocks.per.query | 0 | Invalid value 0 for cloudtalk.hdfs.write.blocks.per.query: must be between 1 and 64",
                "cloudtalk.hdfs.write.evaluator | best | Invalid value best for cloudtalk.hdfs.write.evaluator: must be heuristic, flow, exhaustive or refined",
                "cloudtalk.hdfs.write.answer.reuse.ms | -5 | Invalid value -5 for cloudtalk.hdfs.write.answer.reuse.ms: must be between 1 and 60000",
                "cloudtalk.hdfs.read.bytes | 128 MB | Invalid value 128 MB for cloudtalk.hdfs.read.bytes: not a size in bytes (digits, optionally followed by k, m, g, t, p or e)",
                "cloudtalk.hdfs.read.bytes | 9e | Invalid value 9e for cloudtalk.hdfs.read.bytes: not a size in bytes (digits, optionally followed by k, m, g, t, p or e)",
                "cloudtalk.hdfs.read.bytes | 0k | Invalid value 0k for cloudtalk.hdfs.read.bytes: must be between 1 and 4611686018427387903 bytes",
            })
    void badValuesSayWhatIsWrong(String key, String value, String message) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);

        assertThatThrownBy(() -> HdfsHintSettings.from(conf))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    /**
     * A misspelt key, or one in the wrong case (Hadoop's keys are case-sensitive, so it would be ignored), is refused
     * as unknown by every plugin that reads the site file.
     */
    @ParameterizedTest
    @CsvSource({"cloudtalk.hdfs.write.evaluatr, refined", "CloudTalk.deadline.ms, abc"})
    void anUnknownKeyIsRefusedByEveryPluginThatReadsTheSiteFile(String key, String value) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);
        for (ThrowingCallable plugin : List.<ThrowingCallable>of(
                () -> HdfsHintSettings.from(conf),
                () -> YarnHintSettings.from(conf),
                () -> MapHintSettings.from(conf))) {
            assertThatThrownBy(plugin)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Invalid value " + value + " for " + key + ": unknown key (the Hadoop"
                            + " plugins know cloudtalk.backoff.ms, cloudtalk.client.threads,")
                    .hasMessageContaining("cloudtalk.hdfs.write.evaluator, ")
                    .hasMessageContaining("cloudtalk.yarn.stale.ms)");
        }
    }
}
