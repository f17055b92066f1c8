package org.cloudtalk.testbed.net;

import org.cloudtalk.testbed.TestbedConfig;
import org.cloudtalk.testbed.state.TestbedState;

/**
 * Builds the testbed's network: one routed core namespace (ip_forward on, one /32 route per host) and, per host, a
 * namespace with one /32 address, a shaped veth to the core and an unshaped management veth to the root namespace;
 * and an "outside" namespace on an unshaped veth to the core, for load from outside the cluster.
 * A routed core rather than a Linux bridge: over a bridge a sender is charged for packets queued at the receiver's
 * shaper, so unresponsive UDP never causes loss (ARCHITECTURE.md, platform facts). IPv6 is off in every namespace,
 * so no router solicitations or DAD traffic show up in the counters.
 */
public final class Network {
    private Network() {}

    public static String coreNamespace(TestbedConfig config) {
        return config.prefix() + "-core";
    }

    /**
     * Where load from outside the cluster starts (§5.3's blasts): it reaches a host only through the core and the
     * host's shaped download, where it is dropped like forwarded traffic. Not from the core itself: a sender there
     * writes straight into the shaped queue it floods, so the queue paces it and its "unresponsive" UDP yields to
     * TCP like a responsive flow.
     */
    public static String outsideNamespace(TestbedConfig config) {
        return config.prefix() + "-out";
    }

    /** Creates everything {@code state}'s config describes, recording each object before creating it. */
    public static void build(TestbedState state) {
        TestbedConfig config = state.config();
        String core = coreNamespace(config);
        addNamespace(state, core);
        Commands.inNamespace(core, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1");
        if (config.latencyMs() > 0) {
            Shaper.requireLatencySupport(core);
        }
        for (int i = 0; i < config.hosts(); i++) {
            Host host = Host.of(config.prefix(), config.subnet(), i);
            state.addHost(host);
            addNamespace(state, host.namespace());
            dataLink(config, core, host);
            state.addRootLink(host.managementPeer());
            managementLink(config, host);
        }
        outsideLink(state, config, core);
    }

    /** Creates {@code namespace}, recorded first, with IPv6 off and its loopback up. */
    private static void addNamespace(TestbedState state, String namespace) {
        state.addNamespace(namespace);
        Commands.run("ip", "netns", "add", namespace);
        Commands.inNamespace(
                namespace,
                "sysctl",
                "-q",
                "-w",
                "net.ipv6.conf.all.disable_ipv6=1",
                "net.ipv6.conf.default.disable_ipv6=1");
        Commands.run("ip", "-n", namespace, "link", "set", "lo", "up");
    }

    private static void dataLink(TestbedConfig config, String core, Host host) {
        String ns = host.namespace();
        vethToCore(config, core, ns, host.address(), host.link(), host.coreLink());
        Commands.run(
                "ip", "-n", ns, "route", "add", Host.coreAddress(config.subnet()), "dev", host.link(), "scope", "link");
        // Upload is shaped where the host sends, download where the core sends to it.
        Shaper.shape(ns, host.link(), config.rateMbit(), config.latencyMs());
        Shaper.shape(core, host.coreLink(), config.rateMbit(), config.latencyMs());
    }

    private static void outsideLink(TestbedState state, TestbedConfig config, String core) {
        String outside = outsideNamespace(config);
        addNamespace(state, outside);
        vethToCore(
                config,
                core,
                outside,
                Host.outsideAddress(config.subnet()),
                config.prefix() + "-o",
                config.prefix() + "-co");
    }

    /**
     * A veth from {@code namespace} ({@code link}, holding {@code address}/32) to the core ({@code coreLink}, holding
     * the core's address): the testbed's subnet is routed through the core, and the core routes {@code address} back.
     */
    private static void vethToCore(
            TestbedConfig config, String core, String namespace, String address, String link, String coreLink) {
        String coreAddress = Host.coreAddress(config.subnet());
        Commands.run(
                "ip", "link", "add", link, "netns", namespace, "type", "veth", "peer", "name", coreLink, "netns", core);
        Commands.run("ip", "-n", namespace, "addr", "add", address + "/32", "dev", link);
        Commands.run("ip", "-n", namespace, "link", "set", link, "up");
        Commands.run(
                "ip",
                "-n",
                namespace,
                "route",
                "add",
                "10." + config.subnet() + ".0.0/16",
                "via",
                coreAddress,
                "dev",
                link,
                "onlink");
        Commands.run("ip", "-n", core, "addr", "add", coreAddress + "/32", "dev", coreLink);
        Commands.run("ip", "-n", core, "link", "set", coreLink, "up");
        Commands.run("ip", "-n", core, "route", "add", address + "/32", "dev", coreLink);
    }

    private static void managementLink(TestbedConfig config, Host host) {
        String rootAddress = Host.managementRootAddress(config.subnet());
        String ns = host.namespace();
        Commands.run(
                "ip",
                "link",
                "add",
                host.managementPeer(),
                "type",
                "veth",
                "peer",
                "name",
                host.managementLink(),
                "netns",
                ns);
        Commands.run("ip", "addr", "add", rootAddress + "/32", "dev", host.managementPeer());
        Commands.run("ip", "link", "set", host.managementPeer(), "up");
        Commands.run(
                "ip",
                "route",
                "add",
                host.managementAddress() + "/32",
                "dev",
                host.managementPeer(),
                "src",
                rootAddress);
        Commands.run("ip", "-n", ns, "addr", "add", host.managementAddress() + "/32", "dev", host.managementLink());
        Commands.run("ip", "-n", ns, "link", "set", host.managementLink(), "up");
        Commands.run("ip", "-n", ns, "route", "add", rootAddress, "dev", host.managementLink(), "scope", "link");
    }
}
