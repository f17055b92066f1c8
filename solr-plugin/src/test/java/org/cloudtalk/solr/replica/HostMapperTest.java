package org.cloudtalk.solr.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostMapperTest {
    @TempDir
    Path temp;

    @Test
    void anExplicitEntryWinsForTheNodeThenHostPortThenHost() {
        HostMapper mapper = new HostMapper(
                Map.of("10.1.1.1:8983_solr", "10.0.0.1", "10.1.1.1:7574", "10.0.0.2", "solr3", "10.0.0.3"),
                Optional.empty());
        assertThat(mapper.ip("10.1.1.1:8983_solr")).contains("10.0.0.1");
        assertThat(mapper.ip("10.1.1.1:7574_solr")).contains("10.0.0.2");
        assertThat(mapper.ip("solr3:8983_solr")).contains("10.0.0.3");
        // No entry: an IP literal is its own endpoint.
        assertThat(mapper.ip("10.1.1.9:8983_solr")).contains("10.1.1.9");
        assertThat(mapper.ip("[fe80::1]:8983_solr")).contains("fe80::1");
        assertThat(mapper.ip("[FE80:0::1]:8983_solr")).contains("fe80::1");
    }

    @Test
    void aHostNameIsResolvedOnceOrIsUnmapped() {
        HostMapper mapper = new HostMapper(Map.of(), Optional.empty());
        assertThat(mapper.ip("localhost:8983_solr")).contains("127.0.0.1");
        assertThat(mapper.ip("no-such-host.invalid:8983_solr")).isEmpty();
    }

    @Test
    void theMapFileIsReadWhenItAppearsAndWhenItChanges() throws Exception {
        Path file = temp.resolve("hosts.properties");
        HostMapper mapper = new HostMapper(Map.of("solr1", "10.0.0.1"), Optional.of(file));
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.1");

        Files.writeString(file, "solr1=10.0.0.7\n");
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.7");

        Files.writeString(file, "solr1=10.0.0.17\n");
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.17");

        // A bad rewrite keeps the previous map: an entry that is not an IP, a malformed escape (the Properties reader
        // throws an IllegalArgumentException), a directory in the file's place.
        Files.writeString(file, "solr1=not-an-ip\n");
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.17");
        Files.writeString(file, "solr1=10.0.0.\\u00G7\n");
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.17");
        Files.delete(file);
        Files.createDirectory(file);
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.17");
    }

    @Test
    void aMapFileThatCannotBeUsedAtStartUpIsASettingsError() throws Exception {
        Path file = temp.resolve("hosts.properties");
        Files.writeString(file, "solr1=10.0.0.\\u00G7\n");
        assertThatThrownBy(() -> new HostMapper(Map.of(), Optional.of(file)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value " + file + " for cloudtalk.host.map.file: Malformed \\uxxxx encoding.");

        Files.writeString(file, "solr1=not-an-ip\n");
        assertThatThrownBy(() -> new HostMapper(Map.of(), Optional.of(file)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value solr1=not-an-ip for cloudtalk.host.map.file " + file
                        + ": not-an-ip is not an IP address literal");

        assertThatThrownBy(() -> new HostMapper(Map.of(), Optional.of(temp)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value " + temp + " for cloudtalk.host.map.file: ");
    }

    @Test
    void aMapFileOverTheLimitIsRefusedNotReadOnAndOn() throws Exception {
        Path file = temp.resolve("hosts.properties");
        Files.writeString(file, "solr1=10.0.0.7\n");
        HostMapper mapper = new HostMapper(Map.of(), Optional.of(file));

        Files.write(file, new byte[HostMapper.MAX_FILE_BYTES + 1]);
        mapper.refresh();
        assertThat(mapper.ip("solr1:8983_solr")).contains("10.0.0.7");
        assertThatThrownBy(() -> new HostMapper(Map.of(), Optional.of(file)))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value " + file + " for cloudtalk.host.map.file: larger than 64 MB");
        // An endless file reads as far as the limit.
        assertThatThrownBy(() -> new HostMapper(Map.of(), Optional.of(Path.of("/dev/zero"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value /dev/zero for cloudtalk.host.map.file: larger than 64 MB");
    }

    @Test
    void inlineEntriesMustBeIpLiterals() {
        assertThatThrownBy(() -> HostMapper.parseInline("cloudtalk.host.map", "solr1=solr2"))
                .hasMessage("Invalid value solr1=solr2 for cloudtalk.host.map: solr2 is not an IP address literal");
        assertThatThrownBy(() -> HostMapper.parseInline("cloudtalk.host.map", "b=999.0.0.2"))
                .hasMessage("Invalid value b=999.0.0.2 for cloudtalk.host.map: 999.0.0.2 is not an IP address literal");
        assertThatThrownBy(() -> HostMapper.parseInline("cloudtalk.host.map", "b=::::"))
                .hasMessage("Invalid value b=:::: for cloudtalk.host.map: :::: is not an IP address literal");
        // Kept in the form CloudTalk answers in, so that its answers match the replicas they name.
        assertThat(HostMapper.parseInline("cloudtalk.host.map", "b=2001:DB8:0::1,c=::ffff:10.0.0.3"))
                .isEqualTo(Map.of("b", "2001:db8::1", "c", "10.0.0.3"));
        assertThatThrownBy(() -> HostMapper.parseInline("cloudtalk.host.map", "solr1"))
                .hasMessage("Invalid value solr1 for cloudtalk.host.map: expected node-or-host=ip entries separated by "
                        + "commas");
    }
}
