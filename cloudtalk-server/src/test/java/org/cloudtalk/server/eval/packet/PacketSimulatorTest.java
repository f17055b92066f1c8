package org.cloudtalk.server.eval.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The native helper's input/output contract, on the real helper where the build could make it (needs ns-3). */
class PacketSimulatorTest {
    private static final PacketSimulator SIMULATOR = new PacketSimulator(PacketSimulator.defaultExecutable());
    private static final long GBPS = 1_000_000_000L;

    static void assumeHelperBuilt() {
        assumeTrue(
                SIMULATOR.available(),
                "ns-3 is not installed, so the build made no " + SIMULATOR.executable() + " (bin/install-ns3)");
    }

    /** {@code senders} hosts each send {@code bytes} to one receiver through one switch with 50-packet ports. */
    private static SimulationInput incast(int senders, long bytes) {
        int receiver = senders;
        int sw = senders + 1;
        List<SimulationInput.Link> links = new ArrayList<>();
        List<SimulationInput.Flow> flows = new ArrayList<>();
        for (int host = 0; host <= senders; host++) {
            links.add(new SimulationInput.Link(host, sw, GBPS, 10_000, "50p", "50p"));
        }
        for (int s = 0; s < senders; s++) {
            flows.add(new SimulationInput.Flow("f" + s, s, receiver, bytes, 0, List.of()));
        }
        return new SimulationInput(senders + 2, links, flows);
    }

    @Test
    void moreSendersIntoOneBufferTakeLongerAndLosePackets() throws Exception {
        assumeHelperBuilt();
        SimulationResult two = SIMULATOR.run(incast(2, 20_000), Duration.ofSeconds(30));
        SimulationResult forty = SIMULATOR.run(incast(40, 20_000), Duration.ofSeconds(30));

        assertThat(two.flows()).hasSize(2);
        assertThat(forty.flows()).hasSize(40);
        // Two senders fit the buffer: no loss, done in well under a millisecond of wire time plus RTTs.
        assertThat(two.drops()).isZero();
        assertThat(two.completionSeconds())
                .isGreaterThan(2 * 20_000 * 8.0 / GBPS)
                .isLessThan(0.005);
        // Forty initial windows overflow the 50-packet port: drops, and a retransmission timeout (>= 200 ms).
        assertThat(forty.drops()).isPositive();
        assertThat(forty.completionSeconds()).isGreaterThan(0.2);
    }

    /**
     * A flow's time starts with its first data byte, whatever the round trip: the connection is open by then, even
     * over a 400 ms round trip, longer than the warm-up's 100 ms of quiet (its handshake used to count in the flow).
     */
    @Test
    void aFlowsTimeLeavesOutItsHandshakeOnLongPaths() throws Exception {
        assumeHelperBuilt();
        for (long oneWayNanos : List.of(10_000L, 60_000_000L, 200_000_000L)) {
            SimulationInput input = new SimulationInput(
                    2,
                    List.of(new SimulationInput.Link(0, 1, GBPS, oneWayNanos, "100p", "100p")),
                    List.of(new SimulationInput.Flow("a", 0, 1, 1_000, 0, List.of())));
            double seconds = SIMULATOR.run(input, Duration.ofSeconds(30)).completionSeconds();
            // One segment: the one-way delay plus its wire time (1,054 bytes with headers, 8.4 us at 1 Gbit/s).
            assertThat(seconds)
                    .as("one-way %d ns", oneWayNanos)
                    .isCloseTo(oneWayNanos / 1e9 + 1_054 * 8.0 / GBPS, org.assertj.core.data.Offset.offset(1e-6));
        }
    }

    @Test
    void aFlowAfterAnotherStartsWhenItFinishes() throws Exception {
        assumeHelperBuilt();
        SimulationInput input = new SimulationInput(
                3,
                List.of(
                        new SimulationInput.Link(0, 2, GBPS, 10_000, "50p", "50p"),
                        new SimulationInput.Link(1, 2, GBPS, 10_000, "64000B", "50p")),
                List.of(
                        new SimulationInput.Flow("a", 0, 1, 10_000, 0, List.of()),
                        new SimulationInput.Flow("b", 1, 0, 10_000, 1_000_000, List.of("a")),
                        new SimulationInput.Flow("local", 1, 1, 5_000, 0, List.of("b"))));
        SimulationResult result = SIMULATOR.run(input, Duration.ofSeconds(30));

        SimulationResult.Times a = result.flows().get("a");
        SimulationResult.Times b = result.flows().get("b");
        SimulationResult.Times local = result.flows().get("local");
        assertThat(a.start()).isZero();
        assertThat(b.start()).isCloseTo(a.finish().getAsDouble() + 0.001, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(b.finish().getAsDouble()).isGreaterThan(b.start());
        assertThat(local.start()).isEqualTo(b.finish().getAsDouble());
        assertThat(local.finish().getAsDouble()).isEqualTo(local.start());
        assertThat(result.completionSeconds()).isEqualTo(local.finish().getAsDouble());
    }

    @Test
    void badInputIsRejectedWithTheHelpersLineAndMessage() {
        assumeHelperBuilt();
        SimulationInput input =
                new SimulationInput(2, List.of(new SimulationInput.Link(0, 5, GBPS, 1, "50p", "50p")), List.of());
        assertThatThrownBy(() -> SIMULATOR.run(input, Duration.ofSeconds(30)))
                .isInstanceOf(IOException.class)
                .hasMessage("packet-sim exited with status 2: error: line 2: node 5 is not below 'nodes 2'");
    }

    @Test
    void leavesNoFilesBehindEvenWhenTheSimulationTimesOut() throws Exception {
        assumeHelperBuilt();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        SIMULATOR.run(incast(2, 1000), Duration.ofSeconds(30));
        assertThatThrownBy(() -> SIMULATOR.run(incast(40, 1_000_000), Duration.ofMillis(1)))
                .isInstanceOf(java.util.concurrent.TimeoutException.class);
        try (var files = java.nio.file.Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("cloudtalk-packet-sim")))
                    .isEmpty();
        }
    }

    @Test
    void aMissingHelperIsReportedAsUnavailable() {
        PacketSimulator missing = new PacketSimulator(Path.of("target", "no-such-packet-sim"));
        assertThat(missing.available()).isFalse();
        assertThatThrownBy(() -> missing.run(incast(2, 1000), Duration.ofSeconds(1)))
                .isInstanceOf(SimulatorUnavailableException.class)
                .hasMessageStartingWith(
                        "the packet simulator is not available: target/no-such-packet-sim was not built");
    }

    /** Whatever sits where the helper should is read up to a bound: 100 MB of output had run the server out of memory. */
    @Test
    void aHelperThatWritesWithoutEndIsCutOff(@org.junit.jupiter.api.io.TempDir Path temp) throws Exception {
        Path chatty = temp.resolve("chatty-sim");
        java.nio.file.Files.writeString(chatty, "#!/bin/sh\ncat >/dev/null\nhead -c 20000000 /dev/zero | tr '\\0' x\n");
        assertThat(chatty.toFile().setExecutable(true)).isTrue();

        assertThatThrownBy(() -> new PacketSimulator(chatty).run(incast(2, 1000), Duration.ofSeconds(30)))
                .isInstanceOf(IOException.class)
                .hasMessage(chatty + " wrote more than 16 MB of results, not a packet simulator?");
    }

    /** A wrapper script as the simulator: past the budget its children are killed with it, not left running. */
    @Test
    void aHelperPastItsBudgetIsKilledWithItsChildren(@org.junit.jupiter.api.io.TempDir Path temp) throws Exception {
        Path wrapper = temp.resolve("wrapper-sim");
        Path pidFile = temp.resolve("child.pid");
        java.nio.file.Files.writeString(
                wrapper, "#!/bin/sh\nsleep 30 &\necho $! > " + pidFile + "\ncat >/dev/null\nwait\n");
        assertThat(wrapper.toFile().setExecutable(true)).isTrue();

        assertThatThrownBy(() -> new PacketSimulator(wrapper).run(incast(2, 1000), Duration.ofSeconds(2)))
                .isInstanceOf(java.util.concurrent.TimeoutException.class);
        long child = Long.parseLong(java.nio.file.Files.readString(pidFile).strip());
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (running(child) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(running(child)).as("the wrapper's child %d", child).isFalse();
    }

    /** Whether a process runs: a killed child that no one has reaped yet (a zombie) does not. */
    private static boolean running(long pid) throws IOException {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    @Test
    void unexpectedOutputIsAnError() {
        assertThatThrownBy(() -> PacketSimulator.parse(List.of("flow a 0", "drops 0")))
                .isInstanceOf(IOException.class)
                .hasMessage("packet-sim printed an unexpected line: flow a 0");
        assertThatThrownBy(() -> PacketSimulator.parse(List.of("flow a 0 0.2")))
                .isInstanceOf(IOException.class)
                .hasMessage("packet-sim ended without its 'drops' line");
    }
}
