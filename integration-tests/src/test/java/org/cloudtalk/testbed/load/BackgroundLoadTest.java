package org.cloudtalk.testbed.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.testbed.Leftovers;
import org.cloudtalk.testbed.Root;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.experiment.RunContext;
import org.cloudtalk.testbed.fidelity.LinkMeter;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.net.Link;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unresponsive UDP into a host fills its download link (the routed core drops the excess at the receiver's shaper
 * instead of pushing back on the sender, as a bridge would), and its daemon sees it; a blast from outside (the core)
 * takes its share of the receiver's download and no other host's link.
 */
class BackgroundLoadTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void udpBlastFillsTheReceiversDownload(@TempDir Path runDir) throws Exception {
        Root.assumeNamespaces();
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("cttu" + id, 2, 50, 0, 100 + 2 * (id % 60), runDir, 0);
        try (Testbed testbed = Testbed.up(config);
                BackgroundLoad load =
                        new BackgroundLoad(testbed).udpBlast(testbed.host(0), testbed.host(1), Duration.ofSeconds(8))) {
            RunContext.pause(Duration.ofSeconds(2));
            LinkMeter meter = LinkMeter.start(testbed.coreNamespace(), load.saturatedLinks());
            RunContext.pause(Duration.ofSeconds(3));
            Map<Link, Double> rates = meter.rates();
            EndpointStatus receiver = testbed.daemons().probe(testbed.host(1));
            assertThat(rates).hasSize(2);
            assertThat(rates.values()).allSatisfy(rate -> assertThat(rate).isBetween(45e6, 52e6));
            assertThat(receiver.nicRxUseBitsPerSecond()).isBetween(45_000_000L, 52_000_000L);
            assertThat(testbed.startedProcesses()).extracting(p -> p.role()).contains("iperf-udp-0-1");
        }
        assertNothingLeft(config);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void blastFromOutsideTakesItsShareOfTheReceiversDownloadOnly(@TempDir Path runDir) throws Exception {
        Root.assumeNamespaces();
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("cttv" + id, 2, 50, 0, 100 + 2 * (id % 60), runDir, 0);
        try (Testbed testbed = Testbed.up(config)) {
            Host blasted = testbed.host(1);
            Link download = new Link(blasted, Link.Direction.DOWNLOAD);
            assertThatThrownBy(() -> new BackgroundLoad(testbed)
                            .udpBlastsFromOutside(List.of(blasted), 0, Duration.ofSeconds(1)))
                    .hasMessage("Invalid value 0.0 for blast share of the link rate: (0, 1.5]");
            try (BackgroundLoad load =
                    new BackgroundLoad(testbed).udpBlastsFromOutside(List.of(blasted), 0.6, Duration.ofSeconds(14))) {
                RunContext.pause(Duration.ofSeconds(2));
                LinkMeter meter = LinkMeter.start(testbed.coreNamespace(), Set.of(download));
                RunContext.pause(Duration.ofSeconds(3));
                double rate = meter.rates().get(download);
                EndpointStatus receiver = testbed.daemons().probe(blasted);
                EndpointStatus other = testbed.daemons().probe(testbed.host(0));

                assertThat(load.saturatedLinks())
                        .as("a partial blast saturates nothing")
                        .isEmpty();
                assertThat(rate).isBetween(27e6, 33e6);
                assertThat(receiver.nicRxUseBitsPerSecond()).isBetween(27_000_000L, 33_000_000L);
                assertThat(other.nicTxUseBitsPerSecond()).isLessThan(1_000_000L);
                assertThat(other.nicRxUseBitsPerSecond()).isLessThan(1_000_000L);
                assertThat(testbed.startedProcesses()).extracting(p -> p.role()).contains("iperf-udp-outside-1");

                // Unresponsive: a TCP flow into the blasted host gets what the blast leaves, not the link.
                Link tcpUpload = new Link(testbed.host(0), Link.Direction.UPLOAD);
                load.flows(List.of(testbed.host(0)), List.of(blasted), Duration.ofSeconds(8));
                RunContext.pause(Duration.ofSeconds(2));
                LinkMeter contended = LinkMeter.start(testbed.coreNamespace(), Set.of(download, tcpUpload));
                RunContext.pause(Duration.ofSeconds(3));
                Map<Link, Double> rates = contended.rates();
                assertThat(rates.get(download))
                        .as("the blasted download is full")
                        .isGreaterThan(45e6);
                assertThat(rates.get(tcpUpload))
                        .as("TCP's share of the blasted download")
                        .isBetween(5e6, 25e6);
            }
        }
        assertNothingLeft(config);
    }

    private static void assertNothingLeft(TestbedConfig config) {
        assertThat(Leftovers.namespaces(config.prefix())).isEmpty();
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(ProcessHandle::isAlive)
                        .toList())
                .isEqualTo(List.of());
    }
}
