package org.cloudtalk.status.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
 * B→A), the status daemon running as its own process in A. TCP traffic saturates one direction at a time (so its
 * ACKs never queue behind bulk data the other way), and the test probes the daemon over real UDP on an unshaped
 * management link. After a smoothing window of traffic the reported use must be within 10% of the shaped rate, and
 * the capacities must be the configured caps.
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
                            "bind=0.0.0.0",
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
                    pair.hostB, temp.resolve("sink-b.log"), "64m", TrafficPump.class.getName(), "serve", "5001", "30");
            pair.startJava(
                    pair.hostA, temp.resolve("sink-a.log"), "64m", TrafficPump.class.getName(), "serve", "5002", "30");
            Thread.sleep(1500); // the JVMs start

            pair.startJava(
                    pair.hostA,
                    temp.resolve("send-a.log"),
                    "64m",
                    TrafficPump.class.getName(),
                    "send",
                    pair.addressB,
                    "5001",
                    "4");
            Thread.sleep(3000);
            String outbound = probe(pair, key);
            Thread.sleep(1500); // A's sender stops; its queue drains

            pair.startJava(
                    pair.hostB,
                    temp.resolve("send-b.log"),
                    "64m",
                    TrafficPump.class.getName(),
                    "send",
                    pair.addressA,
                    "5002",
                    "4");
            Thread.sleep(3000);
            String inbound = probe(pair, key);
            System.out.println("real traffic, shaped " + A_TO_B_MBIT + " Mbit/s out: " + outbound);
            System.out.println("real traffic, shaped " + B_TO_A_MBIT + " Mbit/s in: " + inbound);

            assertThat(field(outbound, "nicTxCapacityBitsPerSecond")).isEqualTo(A_TO_B_MBIT * 1_000_000L);
            assertThat(field(outbound, "nicRxCapacityBitsPerSecond")).isEqualTo(B_TO_A_MBIT * 1_000_000L);
            assertThat(field(outbound, "nicTxUseBitsPerSecond"))
                    .as(outbound)
                    .isBetween((long) (A_TO_B_MBIT * 0.9e6), (long) (A_TO_B_MBIT * 1.1e6));
            assertThat(field(inbound, "nicRxUseBitsPerSecond"))
                    .as(inbound)
                    .isBetween((long) (B_TO_A_MBIT * 0.9e6), (long) (B_TO_A_MBIT * 1.1e6));
            assertThat(field(inbound, "sampleAgeMillis")).isLessThanOrEqualTo(1000);
        }
    }

    private static String probe(NamespacePair pair, Path key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = StatusProbe.run(
                new String[] {pair.managementA + ":7450", "--key-file", key.toString(), "--endpoint", pair.addressA},
                new PrintStream(out, true),
                new PrintStream(err, true));
        assertThat(exit).as(err.toString()).isZero();
        return out.toString().trim();
    }

    static long field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertThat(matcher.find()).as(name + " in " + json).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
