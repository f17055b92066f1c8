package org.cloudtalk.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;
import org.cloudtalk.testbed.state.TestbedState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Up, use and down a small real testbed; and `down` from the state file alone, as after a crash. */
class TestbedLifecycleTest {
    static TestbedConfig config(Path runDir, int hosts, int rateMbit) {
        // A prefix and subnet of its own, so a developer's testbed (cttb, 10.77) is never touched.
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        return new TestbedConfig("cttt" + id, hosts, rateMbit, 0, 100 + 2 * (id % 60), runDir, 0);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void buildsHostsWithDaemonsAndRemovesExactlyThem(@TempDir Path runDir) throws Exception {
        Root.assumeNamespaces();
        TestbedConfig config = config(runDir, 3, 40);
        try (Testbed testbed = Testbed.up(config)) {
            assertThat(Leftovers.namespaces(config.prefix()))
                    .containsExactlyInAnyOrder(
                            testbed.host(0).namespace(),
                            testbed.host(1).namespace(),
                            testbed.host(2).namespace(),
                            testbed.coreNamespace(),
                            testbed.outsideNamespace());
            for (Host host : testbed.hosts()) {
                EndpointStatus status = testbed.daemons().probe(host);
                assertThat(status.known()).isTrue();
                assertThat(status.nicTxCapacityBitsPerSecond()).isEqualTo(40_000_000L);
            }
            // Hosts reach each other through the core: a TCP SYN to a closed port comes back refused (not
            // unreachable, not timed out); and a started process runs inside its host.
            Host first = testbed.host(0);
            Commands.Result connect = Commands.attempt(
                    "ip",
                    "netns",
                    "exec",
                    first.namespace(),
                    "timeout",
                    "3",
                    "bash",
                    "-c",
                    "echo > /dev/tcp/" + testbed.host(2).address() + "/9");
            assertThat(connect.output()).contains("Connection refused");
            StartedProcess sleeper = testbed.processes().start(Optional.of(first), "sleeper", List.of("sleep", "60"));
            assertThat(sleeper.handle()).isPresent();
            // Same PID throughout (setsid and `ip netns exec` exec in place), in the host's namespace once
            // `ip netns exec` has entered it.
            String namespace = "";
            for (int i = 0; i < 50 && namespace.isEmpty(); i++) {
                Thread.sleep(100);
                namespace = Commands.run("ip", "netns", "identify", Long.toString(sleeper.pid()))
                        .strip();
            }
            assertThat(namespace).isEqualTo(first.namespace());
            assertThat(ProcessHandle.of(sleeper.pid()).flatMap(h -> h.info().command()))
                    .hasValueSatisfying(command -> assertThat(command).endsWith("sleep"));
        }
        assertNothingLeft(config.prefix());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void downFromTheStateFileAloneRemovesEverything(@TempDir Path runDir) throws Exception {
        Root.assumeNamespaces();
        TestbedConfig config = config(runDir, 2, 10);
        Testbed crashed = Testbed.up(config); // as if the process that built it had died
        Path data = runDir.resolve("data");
        crashed.state().addDirectory(data);
        Files.createDirectories(data.resolve("a/b"));
        Files.writeString(data.resolve("a/b/block"), "x");
        assertThatThrownBy(() -> Testbed.up(config)).hasMessageContaining("already recorded");
        Testbed found = Testbed.attach(runDir).orElseThrow();
        assertThat(found.startedProcesses()).hasSize(2);
        assertThat(found.down()).contains("directory " + data);
        assertNothingLeft(config.prefix());
        assertThat(data).doesNotExist();
        assertThat(TestbedState.read(runDir)).isEmpty();
    }

    static void assertNothingLeft(String prefix) {
        assertThat(Leftovers.namespaces(prefix)).isEmpty();
        assertThat(Leftovers.rootLinks(prefix)).isEmpty();
    }
}
