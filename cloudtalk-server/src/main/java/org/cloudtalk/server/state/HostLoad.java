package org.cloudtalk.server.state;

import org.cloudtalk.status.wire.EndpointStatus;

/**
 * What one host can do and is doing, all in bytes per second so that network and disk figures compare directly
 * (the status daemon reports the NIC in bits/s).
 */
public record HostLoad(
        double rxCapacity,
        double rxUse,
        double txCapacity,
        double txUse,
        double diskReadCapacity,
        double diskReadUse,
        double diskWriteCapacity,
        double diskWriteUse) {
    /** A host whose daemon did not answer: heavily loaded, as the paper assumes (§4). */
    public static final HostLoad UNREACHABLE = new HostLoad(1, 1, 1, 1, 1, 1, 1, 1);

    public HostLoad {
        for (double value : new double[] {
            rxCapacity, rxUse, txCapacity, txUse, diskReadCapacity, diskReadUse, diskWriteCapacity, diskWriteUse
        }) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("load figures must be finite and non-negative: " + value);
            }
        }
    }

    public static HostLoad from(EndpointStatus status) {
        if (!status.known()) {
            return UNREACHABLE;
        }
        return new HostLoad(
                status.nicRxCapacityBitsPerSecond() / 8.0,
                status.nicRxUseBitsPerSecond() / 8.0,
                status.nicTxCapacityBitsPerSecond() / 8.0,
                status.nicTxUseBitsPerSecond() / 8.0,
                status.diskReadCapacityBytesPerSecond(),
                status.diskReadUseBytesPerSecond(),
                status.diskWriteCapacityBytesPerSecond(),
                status.diskWriteUseBytesPerSecond());
    }

    /** Capacity left for new flows when the current use is inelastic background traffic. */
    public double rxAvailable() {
        return Math.max(0, rxCapacity - rxUse);
    }

    public double txAvailable() {
        return Math.max(0, txCapacity - txUse);
    }

    public double diskReadAvailable() {
        return Math.max(0, diskReadCapacity - diskReadUse);
    }

    public double diskWriteAvailable() {
        return Math.max(0, diskWriteCapacity - diskWriteUse);
    }
}
