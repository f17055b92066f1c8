package org.cloudtalk.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.testbed.experiment.Incast;
import org.cloudtalk.testbed.experiment.Measurement;
import org.cloudtalk.testbed.experiment.RunResult;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.proc.ClasspathFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packet simulator's validation on a small testbed: 5 hosts send 10 KiB each into a sixth at once through a
 * 100 Mbit/s port of 50 packets; the testbed's times and ns-3's must both respect the link's rate and agree within
 * 2x, and the receiver's shaper must be the testbed's usual one again afterwards.
 */
class IncastOnTestbedTest {
    private static final int SENDERS = 5;
    private static final long BYTES = 10 * 1024;
    /**
     * Slow enough that the replies take longer to cross the port (4.2 ms) than the testbed takes to wake its senders,
     * which it does one after another on a shared machine (a one-byte gather took 3-4 ms on some days, under 1 ms on
     * others): at 400 Mbit/s the test measured the machine's scheduling more than the network.
     */
    private static final int RATE_MBIT = 100;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theTestbedAndTheSimulatorAgreeOnASmallIncast(@TempDir Path temp) {
        Root.assumeNamespaces();
        assumeThat(Files.isExecutable(ClasspathFile.projectRoot().resolve("cloudtalk-server/target/native/packet-sim")))
                .as("skipped: the packet simulator is not built (bin/install-ns3, then build)")
                .isTrue();
        TestbedConfig config = TestbedLifecycleTest.config(temp.resolve("run"), SENDERS + 1, RATE_MBIT);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (Testbed testbed = Testbed.up(config)) {
            RunResult result = TestbedEndToEndTest.run(
                    new Incast(BYTES, 5, 50 * 1500), testbed, 1.0, temp.resolve("out"), new PrintStream(console, true));
            TestbedEndToEndTest.assertPassed(result, console);
            // Everything must cross the receiver's link: no faster than the rate allows (htb within 2%).
            double floorMs = SENDERS * BYTES * 8 / (RATE_MBIT * 1e6) * 1e3 * 0.98;
            List<Measurement> measured = result.measurements().stream()
                    .filter(m -> m.metric().equals("measured-ms"))
                    .toList();
            assertThat(measured).hasSize(5).allSatisfy(m -> assertThat(m.value())
                    .isGreaterThan(floorMs));
            assertThat(result.measurements())
                    .filteredOn(m -> m.metric().equals("simulated-ms"))
                    .singleElement()
                    .satisfies(m -> assertThat(m.value()).isGreaterThan(floorMs));
            String receiverPort = Commands.run(
                    "tc",
                    "-n",
                    testbed.coreNamespace(),
                    "qdisc",
                    "show",
                    "dev",
                    testbed.host(0).coreLink());
            assertThat(receiverPort).as("the usual 2 MiB FIFO is back").contains("limit 2Mb");
        } finally {
            System.out.print(console);
        }
        TestbedLifecycleTest.assertNothingLeft(config.prefix());
    }
}
