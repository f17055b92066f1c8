package org.cloudtalk.testbed.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.status.wire.EndpointStatus;
import org.cloudtalk.testbed.Root;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.load.BackgroundLoad;
import org.cloudtalk.testbed.net.Commands;
import org.cloudtalk.testbed.net.Host;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code up --disk-rate}: each host's data directory is a disk of its own held to the rate, its daemon reports that
 * disk with the rate as capacity, a disk hog makes exactly its host's disk busy, and {@code down} leaves no loop
 * device, mount, throttle or file behind.
 */
class ThrottledDiskTest {
    private static final int MIBPS = 16;
    private static final long MIB = 1 << 20;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void hostsGetThrottledDisksThatTheirDaemonsReportAndDownRemovesThem(@TempDir Path runDir) throws Exception {
        Root.assumeNamespaces();
        assumeThat(Disks.unsupported())
                .as("this machine cannot throttle loop devices")
                .isEmpty();
        int id = ThreadLocalRandom.current().nextInt(100, 1000);
        TestbedConfig config = new TestbedConfig("cttd" + id, 2, 50, 0, 100 + 2 * (id % 60), runDir, MIBPS);
        List<HostDisk> disks;
        try (Testbed testbed = Testbed.up(config)) {
            disks = testbed.state().snapshot().disks();
            assertThat(disks).hasSize(2);
            Host busy = testbed.host(0);
            Host idle = testbed.host(1);

            // The throttle itself, measured by the writer: 48 MiB of direct writes at 16 MiB/s take ~3 s.
            Path data = Disks.dataDirectory(runDir, idle);
            long start = System.nanoTime();
            Commands.inNamespace(
                    idle.namespace(),
                    "dd",
                    "if=/dev/zero",
                    "of=" + data.resolve("probe"),
                    "bs=1M",
                    "count=48",
                    "oflag=direct",
                    "status=none");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(48.0 / seconds).as("MiB/s written").isBetween(MIBPS * 0.75, MIBPS * 1.25);

            try (BackgroundLoad load = new BackgroundLoad(testbed)
                    .diskHogs(List.of(busy), BackgroundLoad.DiskHog.WRITE, Duration.ofSeconds(10))) {
                Thread.sleep(4000); // the daemons' 1 s smoothing window fills with the hog's writes
                EndpointStatus hogged = testbed.daemons().probe(busy);
                EndpointStatus quiet = testbed.daemons().probe(idle);
                assertThat(hogged.diskWriteCapacityBytesPerSecond()).isEqualTo(MIBPS * MIB);
                assertThat(hogged.diskWriteUseBytesPerSecond())
                        .isBetween((long) (MIBPS * MIB * 0.7), (long) (MIBPS * MIB * 1.2));
                assertThat(quiet.diskWriteUseBytesPerSecond()).isLessThan(MIB);
            }
        }
        for (HostDisk disk : disks) {
            assertThat(Disks.leftovers(disk)).isEmpty();
            assertThat(Files.exists(Path.of(disk.mountPoint()))).isFalse();
        }
        assertThat(Files.exists(runDir.resolve("state.json"))).isFalse();
    }
}
