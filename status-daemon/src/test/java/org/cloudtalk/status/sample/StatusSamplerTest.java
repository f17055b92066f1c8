package org.cloudtalk.status.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.cloudtalk.status.FakeSystem;
import org.cloudtalk.status.wire.EndpointStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class StatusSamplerTest {
    @Test
    void turnsCountersIntoUseAndCapacities(@TempDir Path temp) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        InetAddress endpoint = InetAddress.getByName("10.0.0.1");
        try (StatusSampler sampler = sampler(system, endpoint, Duration.ofSeconds(10))) {
            for (int i = 0; i < 3; i++) {
                Thread.sleep(100);
                // Per step: 1 MB in, 2 MB out, 4 MiB read, no writes; the disk busy for 10% of the time.
                system.add(1_000_000, 2_000_000, 4L << 20, 0, 10);
                sampler.sampleNow();
            }
            EndpointStatus status = sampler.snapshot().statuses().get(endpoint);
            double seconds = 0.3; // three steps of ~100 ms; the ratio between figures does not depend on timing
            assertThat(status.nicTxUseBitsPerSecond())
                    .isBetween((long) (2 * status.nicRxUseBitsPerSecond() * 0.99), (long)
                            (2 * status.nicRxUseBitsPerSecond() * 1.01));
            assertThat(status.nicRxUseBitsPerSecond())
                    .isBetween((long) (3 * 8e6 / seconds * 0.2), (long) (3 * 8e6 / seconds * 1.1));
            assertThat(status.diskReadUseBytesPerSecond()).isGreaterThan(status.nicRxUseBitsPerSecond() / 8);
            assertThat(status.diskWriteUseBytesPerSecond()).isZero();
            assertThat(status.nicRxCapacityBitsPerSecond()).isEqualTo(10_000_000_000L);
            assertThat(status.diskWriteCapacityBytesPerSecond()).isEqualTo(100L << 20);
        }
    }

    @Test
    void aBusyDiskReadsAsUsedEvenWithLittleThroughput(@TempDir Path temp) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        InetAddress endpoint = InetAddress.getByName("10.0.0.1");
        try (StatusSampler sampler = sampler(system, endpoint, Duration.ofSeconds(10))) {
            long start = System.nanoTime();
            Thread.sleep(200);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            // Random small writes: 4 KiB written while the disk was busy the whole time.
            system.add(0, 0, 0, 4096, elapsedMillis);
            sampler.sampleNow();
            EndpointStatus status = sampler.snapshot().statuses().get(endpoint);
            assertThat(status.diskWriteUseBytesPerSecond())
                    .isGreaterThan((long) (0.8 * status.diskWriteCapacityBytesPerSecond()));
        }
    }

    @Test
    void unreadableCountersReportTheEndpointAsFullyUsed(@TempDir Path temp) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        InetAddress endpoint = InetAddress.getByName("10.0.0.1");
        try (StatusSampler sampler = sampler(system, endpoint, Duration.ofSeconds(1))) {
            system.removeNic();
            sampler.sampleNow();
            EndpointStatus status = sampler.snapshot().statuses().get(endpoint);
            assertThat(status.nicRxUseBitsPerSecond()).isEqualTo(status.nicRxCapacityBitsPerSecond());
            assertThat(status.nicTxUseBitsPerSecond()).isEqualTo(status.nicTxCapacityBitsPerSecond());
        }
    }

    @Test
    @Timeout(30)
    void aCounterReadThatBlocksReportsTheEndpointFullyUsedAndKeepsTheSampleFresh(@TempDir Path temp) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        InetAddress endpoint = InetAddress.getByName("10.0.0.1");
        Path diskstats = temp.resolve("proc/diskstats");
        try (StatusSampler sampler = new StatusSampler(
                List.of(system.endpoint(endpoint)),
                system.files(),
                Duration.ofMillis(100),
                Duration.ofSeconds(1),
                Duration.ofMillis(200))) {
            sampler.start();
            // A FIFO without a writer: opening it blocks, as a read of a wedged device's counters would.
            Files.delete(diskstats);
            Process mkfifo = new ProcessBuilder("mkfifo", diskstats.toString()).start();
            assertThat(mkfifo.waitFor()).isZero();
            long blockedAt = System.currentTimeMillis();
            Thread.sleep(1_000);
            StatusSampler.Snapshot stuck = sampler.snapshot();
            EndpointStatus status = stuck.statuses().get(endpoint);
            assertThat(stuck.sampledAtMillis()).isGreaterThan(blockedAt + 500);
            assertThat(status.diskReadUseBytesPerSecond()).isEqualTo(status.diskReadCapacityBytesPerSecond());
            assertThat(status.diskWriteUseBytesPerSecond()).isEqualTo(status.diskWriteCapacityBytesPerSecond());

            // The device answers again: the blocked read completes, and the figures come back.
            Files.writeString(diskstats, "");
            Files.delete(diskstats);
            system.add(0, 0, 0, 0, 0);
            Thread.sleep(1_000);
            EndpointStatus recovered = sampler.snapshot().statuses().get(endpoint);
            assertThat(recovered.diskReadUseBytesPerSecond()).isZero();
            assertThat(recovered.nicRxUseBitsPerSecond()).isZero();
        }
    }

    @Test
    void findsTheBlockDeviceUnderAPath(@TempDir Path temp) throws Exception {
        FakeSystem system = new FakeSystem(temp);
        assertThat(DiskCounters.deviceFor(system.files(), temp)).contains(FakeSystem.DISK);
    }

    private static StatusSampler sampler(FakeSystem system, InetAddress endpoint, Duration window) {
        return new StatusSampler(List.of(system.endpoint(endpoint)), system.files(), Duration.ofMillis(100), window);
    }
}
