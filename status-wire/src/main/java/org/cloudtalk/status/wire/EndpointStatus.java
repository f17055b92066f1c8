package org.cloudtalk.status.wire;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;

/**
 * The load of one endpoint: NIC capacity and use in bits/s, disk capacity and use in bytes/s, and how old the sample
 * is. On the wire NIC figures travel in kbit/s and disk figures in KiB/s, so decoded values are multiples of those.
 */
public record EndpointStatus(
        InetAddress endpoint,
        boolean known,
        long sampleAgeMillis,
        long nicRxCapacityBitsPerSecond,
        long nicRxUseBitsPerSecond,
        long nicTxCapacityBitsPerSecond,
        long nicTxUseBitsPerSecond,
        long diskReadCapacityBytesPerSecond,
        long diskReadUseBytesPerSecond,
        long diskWriteCapacityBytesPerSecond,
        long diskWriteUseBytesPerSecond) {
    public EndpointStatus {
        requireNonNull(endpoint, "endpoint is null");
        if (sampleAgeMillis < 0
                || nicRxCapacityBitsPerSecond < 0
                || nicRxUseBitsPerSecond < 0
                || nicTxCapacityBitsPerSecond < 0
                || nicTxUseBitsPerSecond < 0
                || diskReadCapacityBytesPerSecond < 0
                || diskReadUseBytesPerSecond < 0
                || diskWriteCapacityBytesPerSecond < 0
                || diskWriteUseBytesPerSecond < 0) {
            throw new IllegalArgumentException("status figures must not be negative");
        }
    }

    /** The answer for an address the daemon does not serve. */
    public static EndpointStatus unknown(InetAddress endpoint) {
        return new EndpointStatus(endpoint, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    public EndpointStatus withSampleAge(long ageMillis) {
        return new EndpointStatus(
                endpoint,
                known,
                ageMillis,
                nicRxCapacityBitsPerSecond,
                nicRxUseBitsPerSecond,
                nicTxCapacityBitsPerSecond,
                nicTxUseBitsPerSecond,
                diskReadCapacityBytesPerSecond,
                diskReadUseBytesPerSecond,
                diskWriteCapacityBytesPerSecond,
                diskWriteUseBytesPerSecond);
    }
}
