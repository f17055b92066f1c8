package org.cloudtalk.server.aggregators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsFileTest {
    @TempDir
    Path temp;

    @Test
    void readsAddressesSkippingCommentsAndBlankLinesWhateverTheLineEnds() throws Exception {
        Path file = temp.resolve("hosts.txt");
        Files.writeString(file, "# servers\r10.0.0.1\r\n\n10.0.0.2  # the second\n");

        assertThat(HostsFile.read(file)).extracting(address -> address.text()).containsExactly("10.0.0.1", "10.0.0.2");
    }

    /** The unknown host, and a host listed twice in any form of its address, are refused with their lines. */
    @Test
    void theUnknownHostAndAHostListedTwiceAreRefusedByLine() throws Exception {
        Path unknown = Files.writeString(temp.resolve("unknown.txt"), "10.0.0.1\n0.0.0.0\n");
        assertThatThrownBy(() -> HostsFile.read(unknown))
                .isInstanceOf(HostsFile.HostsFileException.class)
                .hasMessage(unknown + ": line 2: '0.0.0.0': the unknown host cannot be a server or a candidate: name a"
                        + " host");
        Path twice = Files.writeString(temp.resolve("twice.txt"), "10.0.0.1\n10.0.0.2\n::ffff:10.0.0.1\n");
        assertThatThrownBy(() -> HostsFile.read(twice))
                .isInstanceOf(HostsFile.HostsFileException.class)
                .hasMessage(twice + ": line 3: '::ffff:10.0.0.1': the same host as line 1");
    }

    /** Millions of addresses had filled a small heap before any check; no query could name that many. */
    @Test
    void aFileOverFourMegabytesIsRefused() throws Exception {
        Path file = temp.resolve("hosts.txt");
        Files.writeString(file, "10.0.0.1\n".repeat(HostsFile.MAX_BYTES / 9 + 1));

        assertThatThrownBy(() -> HostsFile.read(file))
                .isInstanceOf(HostsFile.HostsFileException.class)
                .hasMessage(file + ": larger than 4 MB");
    }
}
