package org.cloudtalk.status.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.common.config.ConfigValues;
import org.cloudtalk.status.FakeSystem;
import org.cloudtalk.status.sample.EndpointSettings;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonConfigTest {
    @TempDir
    Path temp;

    Map<String, String> properties = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        FakeSystem system = new FakeSystem(temp);
        Path key = temp.resolve("key");
        Files.writeString(key, "a-deployment-key-of-some-length\n");
        properties.put("key.file", key.toString());
        properties.put("endpoints", "10.0.0.1");
        properties.put("interface", FakeSystem.NIC);
        properties.put("disk", FakeSystem.DISK);
        properties.put("sysfs.root", system.files().sysfs().toString());
        properties.put("procfs.root", system.files().procfs().toString());
    }

    @Test
    void theReadTimeoutHasADefaultAndBounds() throws Exception {
        assertThat(DaemonConfig.from(properties).readTimeout()).hasMillis(500);
        properties.put("read.timeout.ms", "50");
        assertThat(DaemonConfig.from(properties).readTimeout()).hasMillis(50);
        properties.put("read.timeout.ms", "0");
        assertThatThrownBy(() -> DaemonConfig.from(properties))
                .hasMessage("Invalid value 0 for read.timeout.ms: must be between 1 and 60000");
    }

    @Test
    void anEndpointListedTwiceIsABadSetting() {
        properties.put("endpoints", "10.0.0.1, 10.0.0.2,10.0.0.1");
        assertThatThrownBy(() -> DaemonConfig.from(properties))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 10.0.0.1, 10.0.0.2,10.0.0.1 for endpoints: 10.0.0.1 is 10.0.0.1, listed more"
                        + " than once");
    }

    /** A NUL in a value that becomes a path had been an internal error (the JDK's InvalidPathException). */
    @Test
    void aNulCharacterInAValueIsABadSetting() {
        for (String key : new String[] {"interface", "sysfs.root", "procfs.root", "disk.path"}) {
            Map<String, String> bad = new HashMap<>(properties);
            bad.put(key, "sd\0a");
            assertThatThrownBy(() -> DaemonConfig.from(bad))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("Invalid value sd\0a for " + key + ": contains a NUL character");
        }
    }

    @Test
    void capsTheDeviceSpeedAndAppliesPerEndpointSettings() throws Exception {
        properties.put("nic.capacity.mbps", "500");
        properties.put("endpoint.10.0.0.1.nic.tx.capacity.mbps", "100");
        properties.put("endpoint.10.0.0.1.disk.write.capacity.mibps", "50");
        DaemonConfig config = DaemonConfig.from(properties);
        EndpointSettings endpoint = config.endpoints().get(0);
        assertThat(endpoint.nicRxCapacityBitsPerSecond()).isEqualTo(500_000_000L);
        assertThat(endpoint.nicTxCapacityBitsPerSecond()).isEqualTo(100_000_000L);
        assertThat(endpoint.diskWriteCapacityBytesPerSecond()).isEqualTo(50L << 20);
        assertThat(endpoint.diskReadCapacityBytesPerSecond()).isEqualTo(200L << 20);
        assertThat(config.key()).isEqualTo("a-deployment-key-of-some-length".getBytes());
        assertThat(config.bindAddress().getPort()).isEqualTo(DaemonConfig.DEFAULT_PORT);
    }

    @Test
    void deviceSpeedIsTheCapacityWithoutACap() throws Exception {
        assertThat(DaemonConfig.from(properties).endpoints().get(0).nicRxCapacityBitsPerSecond())
                .isEqualTo(10_000_000_000L);
    }

    @Test
    void warnsOfAGuessedLinkSpeedOnlyWhenNoCapIsSet() throws Exception {
        Files.delete(Path.of(properties.get("sysfs.root"), "class/net", FakeSystem.NIC, "speed"));
        assertThat(warningsOf(properties)).contains("reports no link speed and no nic.capacity.mbps is set");
        // A cap equal to the default is still the operator's choice, not a guess.
        properties.put("nic.capacity.mbps", "1000");
        assertThat(warningsOf(properties)).doesNotContain("reports no link speed");
    }

    /** What building the configuration logs (slf4j-simple writes to the System.err of the moment). */
    private static String warningsOf(Map<String, String> properties) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DaemonConfig.from(properties);
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void perEndpointKeysMatchAnyTextualFormOfTheAddress() throws Exception {
        properties.put("endpoints", "::1");
        properties.put("endpoint.::1.nic.capacity.mbps", "100");
        assertThat(DaemonConfig.from(properties).endpoints().get(0).nicRxCapacityBitsPerSecond())
                .isEqualTo(100_000_000L);
        properties.put("endpoints", "0:0:0:0:0:0:0:1");
        assertThat(DaemonConfig.from(properties).endpoints().get(0).nicTxCapacityBitsPerSecond())
                .isEqualTo(100_000_000L);
    }

    @Test
    void anIpv6EndpointKeyWorksFromAFileWithItsColonsEscaped() throws Exception {
        properties.put("endpoints", "2001:db8::7");
        Path file = temp.resolve("daemon.properties");
        Files.writeString(file, "endpoint.2001\\:db8\\:\\:7.nic.tx.capacity.mbps = 100\n");
        properties.putAll(ConfigValues.read(file, "--config"));
        assertThat(DaemonConfig.from(properties).endpoints().get(0).nicTxCapacityBitsPerSecond())
                .isEqualTo(100_000_000L);
    }

    @Test
    void anUnescapedColonInAKeySaysHowToEscapeIt() throws Exception {
        properties.put("endpoints", "::1");
        Path file = temp.resolve("daemon.properties");
        Files.writeString(file, "endpoint.::1.nic.capacity.mbps = 100\n");
        properties.putAll(ConfigValues.read(file, "--config"));
        assertThatThrownBy(() -> DaemonConfig.from(properties))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Unknown configuration key endpoint.: a ':' in a key must be escaped as '\\:' "
                        + "(write endpoint.\\:\\:1.nic.capacity.mbps)");
    }

    @Test
    void perEndpointKeysNeedAnAddressAndAValidValue() throws Exception {
        assertError(
                "endpoint.foo.nic.capacity.mbps",
                "abc",
                "Invalid value abc for endpoint.foo.nic.capacity.mbps: foo is not an IP address literal");
        // Checked even for an address this daemon does not serve: the same file may be another host's.
        assertError(
                "endpoint.10.0.0.9.nic.capacity.mbps",
                "abc",
                "Invalid value abc for endpoint.10.0.0.9.nic.capacity.mbps: not a whole number");
        assertError(
                "endpoint.10.0.0.1.disk.read.capacity.mibps",
                "0",
                "Invalid value 0 for endpoint.10.0.0.1.disk.read.capacity.mibps: must be between 1 and 100000000");
        properties.put("endpoints", "::1");
        properties.put("endpoint.::1.nic.capacity.mbps", "100");
        assertError(
                "endpoint.0:0:0:0:0:0:0:1.nic.capacity.mbps",
                "200",
                "Invalid value 100 for endpoint.::1.nic.capacity.mbps: "
                        + "the same endpoint is also set by endpoint.0:0:0:0:0:0:0:1.nic.capacity.mbps");
    }

    @Test
    void aKeyForAnAddressNotServedIsLoggedNotSilentlyIgnored() throws Exception {
        properties.put("endpoint.10.0.0.9.nic.capacity.mbps", "100");
        assertThat(warningsOf(properties))
                .contains("endpoint.10.0.0.9.nic.capacity.mbps is ignored: "
                        + "10.0.0.9 is not one of the endpoints this daemon serves (10.0.0.1)");
    }

    @Test
    void aNamedInterfaceOrDiskMustExistAtStart() throws Exception {
        assertError("interface", "nonexistent0", "Invalid value nonexistent0 for interface: no such network interface");
        assertError(
                "endpoint.10.0.0.1.interface",
                "nonexistent0",
                "Invalid value nonexistent0 for endpoint.10.0.0.1.interface: no such network interface");
        assertError(
                "disk",
                "nosuchdisk",
                "Invalid value nosuchdisk for disk: no such block device in "
                        + Path.of(properties.get("procfs.root"), "diskstats"));
    }

    /** Paths the daemon reads must exist: a missing one would leave its counters unread and the host looking idle. */
    @Test
    void aDiskPathAndTheSystemRootsMustExist() throws Exception {
        assertError("procfs.root", "/nonexistent", "Invalid value /nonexistent for procfs.root: no such directory");
        assertError("sysfs.root", "/nonexistent", "Invalid value /nonexistent for sysfs.root: no such directory");
        properties.remove("disk");
        assertError(
                "disk.path",
                "/nonexistent/path",
                "Invalid value /nonexistent/path for disk.path: no such file or directory");
        assertError(
                "endpoint.10.0.0.1.disk.path",
                "/nonexistent/path",
                "Invalid value /nonexistent/path for endpoint.10.0.0.1.disk.path: no such file or directory");
    }

    @Test
    void explainsEveryBadValue() throws Exception {
        assertError("port", "70000", "Invalid value 70000 for port: must be between 0 and 65535");
        assertError("port", "http", "Invalid value http for port: not a whole number");
        assertError("bind", "localhost", "Invalid value localhost for bind: not an IP address literal");
        assertError("endpoints", "db1.example", "Invalid value db1.example for endpoints: not an IP address literal");
        assertError("sample.interval.ms", "5", "Invalid value 5 for sample.interval.ms: must be between 10 and 60000");
        assertError(
                "smoothing.window.ms",
                "100",
                "Invalid value 100 for smoothing.window.ms: must be at least sample.interval.ms");
        assertError("nic.capcity.mbps", "100", "Unknown configuration key nic.capcity.mbps");
        Path shortKey = temp.resolve("short");
        Files.writeString(shortKey, "tiny");
        assertError(
                "key.file",
                shortKey.toString(),
                "Invalid value " + shortKey + " for key.file: the key must be at least 16 bytes");
        assertError(
                "key.file", "/nonexistent", "Invalid value /nonexistent for key.file: cannot read it (no such file)");
        properties.remove("interface");
        assertError(
                "endpoints",
                "192.0.2.44",
                "Invalid value 192.0.2.44 for endpoints: no local interface holds it; set endpoint.192.0.2.44.interface");
    }

    private void assertError(String key, String value, String message) {
        Map<String, String> bad = new HashMap<>(properties);
        bad.put(key, value);
        assertThatThrownBy(() -> DaemonConfig.from(bad))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }
}
