package org.cloudtalk.testbed.net;

/**
 * One emulated host: its network namespace, its data address (a /32 on {@code link}, whose peer {@code coreLink}
 * lives in the core namespace) and its management address (on an unshaped link whose peer {@code managementPeer}
 * lives in the root namespace, so that probes and the control plane never queue behind the measured traffic).
 */
public record Host(
        int index,
        String namespace,
        String address,
        String link,
        String coreLink,
        String managementAddress,
        String managementLink,
        String managementPeer) {

    /** Builds host {@code index} of a testbed named {@code prefix} in {@code 10.<subnet>.0.0/16}. */
    public static Host of(String prefix, int subnet, int index) {
        String suffix = (1 + index / 250) + "." + (1 + index % 250);
        return new Host(
                index,
                prefix + "-h" + index,
                "10." + subnet + "." + suffix,
                prefix + "-v" + index,
                prefix + "-c" + index,
                "10." + (subnet + 1) + "." + suffix,
                prefix + "-g" + index,
                prefix + "-m" + index);
    }

    /** The core namespace's address on every core link. */
    public static String coreAddress(int subnet) {
        return "10." + subnet + ".0.1";
    }

    /** The outside namespace's address ({@link Network#outsideNamespace}). */
    public static String outsideAddress(int subnet) {
        return "10." + subnet + ".0.2";
    }

    /** The root namespace's address on every management link. */
    public static String managementRootAddress(int subnet) {
        return "10." + (subnet + 1) + ".0.1";
    }
}
