package org.cloudtalk.status.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cloudtalk.status.cli.StatusDaemonMain;
import org.cloudtalk.status.cli.StatusProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proof on real counters: two network namespaces joined by a veth pair shaped by tc (40 Mbit/s A→B, 20 Mbit/s
 * B→A), TCP traffic saturating both directions, the status daemon running as its own process in A, and the probe
 * asking it over real UDP from inside A. The reported use must be within 10% of the shaped rates and the capacity
 * the configured caps.
 */
class RealTrafficTest {
    private static final int A_TO_B_MBIT = 40;
    private static final int B_TO_A_MBIT = 20;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void reportsShapedTrafficWithinTenPercent(@TempDir Path temp) throws Exception {
        assumeThat(NamespacePair.available())
                .as("needs root and iproute2 to build network namespaces")
                .isTrue();
        try (NamespacePair pair = NamespacePair.create(A_TO_B_MBIT, B_TO_A_MBIT)) {
            Path key = temp.resolve("key");
            Files.writeString(key, "namespace-test-key-0123456789");
            Path config = temp.resolve("daemon.properties");
            Files.writeString(
                    config,
                    String.join(
                            "\n",
                            "key.file=" + key,
                            "bind=" + pair.addressA,
                            "port=7450",
                            "endpoints=" + pair.addressA,
                            "nic.tx.capacity.mbps=" + A_TO_B_MBIT,
                            "nic.rx.capacity.mbps=" + B_TO_A_MBIT,
                            "sample.interval.ms=250",
                            "smoothing.window.ms=1000",
                            ""));
            pair.startJava(
                    pair.hostA,
                    temp.resolve("daemon.log"),
                    "64m",
                    StatusDaemonMain.class.getName(),
                    "--config",
                    config.toString());
            pair.startJava(
                    pair.hostB, temp.resolve("sink-b.log"), "64m", TrafficPump.class.getName(), "serve", "5001", "20");
            pair.startJava(
                    pair.hostA, temp.resolve("sink-a.log"), "64m", TrafficPump.class.getName(), "serve", "5002", "20");
            Thread.sleep(1500); // the JVMs start
            pair.startJava(
                    pair.hostA,
                    temp.resolve("send-a.log"),
                    "64m",
                    TrafficPump.class.getName(),
                    "send",
                    pair.addressB,
                    "5001",
                    "8");
            pair.startJava(
                    pair.hostB,
                    temp.resolve("send-b.log"),
                    "64m",
                    TrafficPump.class.getName(),
                    "send",
                    pair.addressA,
                    "5002",
                    "8");
            Thread.sleep(3000); // one smoothing window of steady traffic, and then some

            Path reply = temp.resolve("probe.json");
            Process probe = pair.startJava(
                    pair.hostA,
                    reply,
                    "64m",
                    StatusProbe.class.getName(),
                    pair.addressA + ":7450",
                    "--key-file",
                    key.toString(),
                    "--endpoint",
                    pair.addressA);
            assertThat(probe.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String json = Files.readString(reply);
            assertThat(probe.exitValue())
                    .as(json + Files.readString(temp.resolve("daemon.log")))
                    .isZero();
            System.out.println("real traffic, shaped " + A_TO_B_MBIT + "/" + B_TO_A_MBIT + " Mbit/s: " + json.trim());

            assertThat(field(json, "nicTxCapacityBitsPerSecond")).isEqualTo(A_TO_B_MBIT * 1_000_000L);
            assertThat(field(json, "nicRxCapacityBitsPerSecond")).isEqualTo(B_TO_A_MBIT * 1_000_000L);
            assertThat(field(json, "nicTxUseBitsPerSecond")).as(json).isBetween((long) (A_TO_B_MBIT * 0.9e6), (long)
                    (A_TO_B_MBIT * 1.1e6));
            assertThat(field(json, "nicRxUseBitsPerSecond")).as(json).isBetween((long) (B_TO_A_MBIT * 0.9e6), (long)
                    (B_TO_A_MBIT * 1.1e6));
            assertThat(field(json, "sampleAgeMillis")).isLessThanOrEqualTo(1000);
        }
    }

    static long field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertThat(matcher.find()).as(name + " in " + json).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
