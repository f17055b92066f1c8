package org.cloudtalk.hadoop.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.cloudtalk.hadoop.hint.Fallback;
import org.cloudtalk.hadoop.hint.HintClient;
import org.cloudtalk.hadoop.hint.HintMetrics;
import org.cloudtalk.hadoop.hint.HintSettings;
import org.cloudtalk.hadoop.testing.ControlledCloudTalk;
import org.cloudtalk.hadoop.testing.MisbehavingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which split locations the map wrapper drops, against a real CloudTalk server whose hosts' load the test sets. */
class SlowHostsTest {
    private static final Set<String> HOSTS = Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
    private static final org.apache.hadoop.fs.Path FILE = new org.apache.hadoop.fs.Path("/data/part-0");

    private static ControlledCloudTalk cloudTalk;
    private static HintClient hints;

    @BeforeAll
    static void start() throws Exception {
        cloudTalk = ControlledCloudTalk.start(HOSTS);
        Configuration conf = new Configuration(false);
        conf.set(HintSettings.SERVER_URI, cloudTalk.uri());
        conf.setLong(HintSettings.DEADLINE_MS, 2000);
        conf.setLong(HintSettings.BACKOFF_MS, 0);
        hints = new HintClient(
                "maps-test", HintSettings.from(conf), HintMetrics.register("CloudTalkSlowHostsTest", "test"));
    }

    @AfterAll
    static void stop() {
        if (cloudTalk != null) {
            cloudTalk.close();
        }
    }

    @BeforeEach
    void reset() throws Exception {
        cloudTalk.restart(HOSTS);
    }

    @Test
    void slowHostsLeaveEverySplitThatHasAFastLocation() throws Exception {
        slow("127.0.0.2", "127.0.0.3");
        List<InputSplit> splits = List.of(
                split(0, "127.0.0.2", "127.0.0.4"),
                split(1, "127.0.0.3", "127.0.0.2", "127.0.0.5"),
                split(2, "127.0.0.4", "127.0.0.5"));

        List<InputSplit> placed = new SlowHosts(hints, MapHintSettings.DEFAULT_SLOW_FRACTION).avoid(splits);

        assertThat(placed.get(0).getLocations()).containsExactly("127.0.0.4");
        assertThat(placed.get(1).getLocations()).containsExactly("127.0.0.5");
        assertThat(placed.get(2)).isSameAs(splits.get(2));
        FileSplit first = (FileSplit) placed.get(0);
        assertThat(first.getPath()).isEqualTo(FILE);
        assertThat(first.getStart()).isZero();
        assertThat(first.getLength()).isEqualTo(1 << 20);
    }

    @Test
    void aSplitOnSlowHostsOnlyKeepsOneOfThem() throws Exception {
        slow("127.0.0.2", "127.0.0.3");

        List<InputSplit> placed = new SlowHosts(hints, MapHintSettings.DEFAULT_SLOW_FRACTION)
                .avoid(List.of(split(0, "127.0.0.2", "127.0.0.3"), split(1, "127.0.0.4")));

        assertThat(placed.get(0).getLocations()).hasSize(1).isSubsetOf("127.0.0.2", "127.0.0.3");
    }

    @Test
    void combinedSplitsAreRewrittenAndOtherSplitTypesKeptAndCounted() throws Exception {
        slow("127.0.0.2");
        CombineFileSplit combined = new CombineFileSplit(
                new org.apache.hadoop.fs.Path[] {FILE, FILE}, new long[] {0, 10}, new long[] {10, 20}, new String[] {
                    "127.0.0.2", "127.0.0.3"
                });
        InputSplit custom = new FileSplit(FILE, 0, 10, new String[] {"127.0.0.2", "127.0.0.4"}) {};
        long overruled = hints.metrics().choicesOverruled();

        List<InputSplit> placed =
                new SlowHosts(hints, MapHintSettings.DEFAULT_SLOW_FRACTION).avoid(List.of(combined, custom));

        CombineFileSplit rewritten = (CombineFileSplit) placed.get(0);
        assertThat(rewritten.getLocations()).containsExactly("127.0.0.3");
        assertThat(rewritten.getPaths()).containsExactly(FILE, FILE);
        assertThat(rewritten.getLengths()).containsExactly(10, 20);
        assertThat(placed.get(1)).isSameAs(custom);
        assertThat(hints.metrics().choicesOverruled()).isEqualTo(overruled + 1);
    }

    @Test
    void withoutAnAnswerEverySplitKeepsItsLocations() throws Exception {
        slow("127.0.0.2");
        cloudTalk.stopServer();
        List<InputSplit> splits = List.of(split(0, "127.0.0.2", "127.0.0.3"));
        long unavailable = hints.metrics().fallbacks(Fallback.UNAVAILABLE);

        assertThat(new SlowHosts(hints, MapHintSettings.DEFAULT_SLOW_FRACTION).avoid(splits))
                .isEqualTo(splits);
        assertThat(hints.metrics().fallbacks(Fallback.UNAVAILABLE)).isEqualTo(unavailable + 1);
    }

    /** Scores for hosts that were not asked about are a wrong answer, not a bar for the split hosts to clear. */
    @Test
    void anAnswerScoringAHostNotAskedAboutKeepsEverySplitAsItWas() throws Exception {
        cloudTalk.stopServer();
        String stray = "{\"bindings\":{\"X\":\"127.0.0.2\"},\"evaluator\":\"refined\",\"status\":{},"
                + "\"elapsedMicros\":1,\"explain\":{\"X\":{\"127.0.0.2\":100,\"127.0.0.3\":100,\"6.6.6.6\":1e12}}}";
        List<InputSplit> splits = List.of(split(0, "127.0.0.2", "127.0.0.3"), split(1, "127.0.0.3", "127.0.0.2"));
        long bad = hints.metrics().fallbacks(Fallback.BAD_ANSWER);

        try (MisbehavingServer liar = MisbehavingServer.answering(cloudTalk.port(), stray)) {
            assertThat(new SlowHosts(hints, MapHintSettings.DEFAULT_SLOW_FRACTION).avoid(splits))
                    .isEqualTo(splits);
        }
        assertThat(hints.metrics().fallbacks(Fallback.BAD_ANSWER)).isEqualTo(bad + 1);
    }

    @Test
    void badSettingsSayWhichKeyAndValue() {
        Configuration conf = new Configuration(false);
        conf.set(MapHintSettings.SLOW_FRACTION, "1.5");
        assertThatThrownBy(() -> MapHintSettings.from(conf))
                .hasMessage("Invalid value 1.5 for cloudtalk.mapreduce.slow.fraction: must be between 0 and 1,"
                        + " exclusive");
        for (String notPlain : List.of("0.5d", "0x1p-1", "5e-1", "NaN")) {
            conf.set(MapHintSettings.SLOW_FRACTION, notPlain);
            assertThatThrownBy(() -> MapHintSettings.from(conf))
                    .hasMessage("Invalid value " + notPlain
                            + " for cloudtalk.mapreduce.slow.fraction: not a plain decimal number");
        }
        conf.set(MapHintSettings.SLOW_FRACTION, "0.3");
        conf.set(MapHintSettings.INNER_FORMAT, "org.example.NoSuchFormat");
        assertThatThrownBy(() -> MapHintSettings.from(conf))
                .hasMessage("Invalid value org.example.NoSuchFormat for cloudtalk.mapreduce.inputformat.class: no such"
                        + " class on the job's class path");
        conf.set(MapHintSettings.INNER_FORMAT, CloudTalkInputFormat.class.getName());
        assertThatThrownBy(() -> MapHintSettings.from(conf)).hasMessageContaining("cannot wrap itself");
        // The job's submission asks for the splits: FileInputFormat, abstract, failed there as an
        // InstantiationException from Hadoop's reflection, naming no key.
        conf.set(MapHintSettings.INNER_FORMAT, FileInputFormat.class.getName());
        assertThatThrownBy(() -> new CloudTalkInputFormat<>().getSplits(Job.getInstance(conf)))
                .hasMessage("Invalid value org.apache.hadoop.mapreduce.lib.input.FileInputFormat for"
                        + " cloudtalk.mapreduce.inputformat.class: an abstract class; name a format such as"
                        + " TextInputFormat");
        conf.set(MapHintSettings.INNER_FORMAT, NoDefaultConstructor.class.getName());
        assertThatThrownBy(() -> MapHintSettings.from(conf))
                .hasMessage("Invalid value " + NoDefaultConstructor.class.getName()
                        + " for cloudtalk.mapreduce.inputformat.class: no constructor without arguments");
    }

    /** A format Hadoop's reflection cannot create. */
    static final class NoDefaultConstructor extends TextInputFormat {
        NoDefaultConstructor(String unused) {}
    }

    private static void slow(String... hosts) {
        Set<String> idle = new TreeSet<>(HOSTS);
        Set<String> slow = Set.of(hosts);
        idle.removeAll(slow);
        cloudTalk.load(idle, Set.of(), slow);
    }

    private static FileSplit split(int index, String... hosts) {
        return new FileSplit(FILE, (long) index << 20, 1 << 20, hosts);
    }
}
