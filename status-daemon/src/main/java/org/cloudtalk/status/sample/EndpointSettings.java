package org.cloudtalk.status.sample;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.util.Optional;

/**
 * What to sample for one endpoint and the capacities to report: NIC in bits/s, disk in bytes/s. The NIC capacities
 * are already the smaller of the device's speed and any operator cap.
 */
public record EndpointSettings(
        InetAddress address,
        String networkInterface,
        Optional<String> diskDevice,
        long nicRxCapacityBitsPerSecond,
        long nicTxCapacityBitsPerSecond,
        long diskReadCapacityBytesPerSecond,
        long diskWriteCapacityBytesPerSecond) {
    public EndpointSettings {
        requireNonNull(address, "address is null");
        requireNonNull(networkInterface, "networkInterface is null");
        requireNonNull(diskDevice, "diskDevice is null");
    }
}
