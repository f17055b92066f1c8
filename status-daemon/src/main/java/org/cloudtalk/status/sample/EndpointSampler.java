package org.cloudtalk.status.sample;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.cloudtalk.status.wire.EndpointStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one endpoint's cumulative counters into current use. NIC use is the sliding-window rate of rx/tx bytes.
 * Disk use is the measured throughput, except on a device busy at least {@value #SATURATED} of the time: there it is
 * at least the busy fraction times capacity (split between reads and writes by their share of the throughput), so a
 * disk saturated by small random I/O reads as used, not idle. Below that, busy time says little (devices with deep
 * queues are "busy" while far from their bandwidth), so it is not used.
 *
 * <p>Counters that cannot be read, or not within the read timeout ({@link BoundedReads}), are reported as full use:
 * an endpoint CloudTalk cannot see is not one to pick.
 *
 * <p>Concurrency: not thread-safe; the sampler thread owns it.
 */
final class EndpointSampler {
    private static final Logger log = LoggerFactory.getLogger(EndpointSampler.class);
    private static final double SATURATED = 0.9;

    private final EndpointSettings settings;
    private final SystemFiles files;
    private final BoundedReads reads;
    private final SlidingRate rx;
    private final SlidingRate tx;
    private final SlidingRate read;
    private final SlidingRate written;
    private final SlidingRate busy;
    private boolean nicFailing;
    private boolean diskFailing;

    EndpointSampler(
            EndpointSettings settings, SystemFiles files, BoundedReads reads, long windowNanos, int maxSamples) {
        this.settings = requireNonNull(settings, "settings is null");
        this.files = requireNonNull(files, "files is null");
        this.reads = requireNonNull(reads, "reads is null");
        this.rx = new SlidingRate(windowNanos, maxSamples);
        this.tx = new SlidingRate(windowNanos, maxSamples);
        this.read = new SlidingRate(windowNanos, maxSamples);
        this.written = new SlidingRate(windowNanos, maxSamples);
        this.busy = new SlidingRate(windowNanos, maxSamples);
    }

    EndpointStatus sample() {
        long rxCapacity = settings.nicRxCapacityBitsPerSecond();
        long txCapacity = settings.nicTxCapacityBitsPerSecond();
        long rxUse = rxCapacity;
        long txUse = txCapacity;
        try {
            NicCounters nic = NicCounters.read(files, settings.networkInterface(), reads);
            long nanos = reads.lastReadNanos();
            rxUse = Math.round(rx.add(nanos, nic.rxBytes()) * 8);
            txUse = Math.round(tx.add(nanos, nic.txBytes()) * 8);
            nicFailing = recovered(nicFailing, "interface " + settings.networkInterface());
        } catch (IOException | RuntimeException e) {
            nicFailing = failed(nicFailing, "interface " + settings.networkInterface(), e);
        }

        long readCapacity = settings.diskReadCapacityBytesPerSecond();
        long writeCapacity = settings.diskWriteCapacityBytesPerSecond();
        long readUse = 0;
        long writeUse = 0;
        if (settings.diskDevice().isPresent()) {
            String device = settings.diskDevice().get();
            readUse = readCapacity;
            writeUse = writeCapacity;
            try {
                DiskCounters disk = DiskCounters.read(files, device, reads);
                long nanos = reads.lastReadNanos();
                double readRate = read.add(nanos, disk.bytesRead());
                double writeRate = written.add(nanos, disk.bytesWritten());
                double busyFraction = Math.min(1, busy.add(nanos, disk.busyMillis()) / 1000);
                double total = readRate + writeRate;
                double readShare = total > 0 ? readRate / total : 0.5;
                double saturation = busyFraction >= SATURATED ? busyFraction : 0;
                readUse = Math.round(Math.max(readRate, saturation * readShare * readCapacity));
                writeUse = Math.round(Math.max(writeRate, saturation * (1 - readShare) * writeCapacity));
                diskFailing = recovered(diskFailing, "disk " + device);
            } catch (IOException | RuntimeException e) {
                diskFailing = failed(diskFailing, "disk " + device, e);
            }
        }
        return new EndpointStatus(
                settings.address(),
                true,
                0,
                rxCapacity,
                rxUse,
                txCapacity,
                txUse,
                readCapacity,
                readUse,
                writeCapacity,
                writeUse);
    }

    EndpointSettings settings() {
        return settings;
    }

    private boolean failed(boolean wasFailing, String what, Exception e) {
        if (!wasFailing) {
            log.warn(
                    "cannot read counters of {} for {}; reporting it fully used: {}",
                    what,
                    settings.address(),
                    e.toString());
        }
        return true;
    }

    private boolean recovered(boolean wasFailing, String what) {
        if (wasFailing) {
            log.info("counters of {} for {} are readable again", what, settings.address());
        }
        return false;
    }
}
