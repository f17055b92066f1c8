package org.cloudtalk.server.aggregators;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.cloudtalk.common.io.TextFile;
import org.cloudtalk.lang.ast.Address;

/**
 * A list of hosts, one address per line; blank lines and {@code #} comments are skipped. Each host once, and never
 * the unknown host 0.0.0.0.
 */
public final class HostsFile {
    /**
     * The largest hosts file read: ~250,000 addresses, more than any query can name (its text is at most 1 MiB), and
     * little enough to hold as addresses in a small heap.
     */
    static final int MAX_BYTES = 4 << 20;

    private HostsFile() {}

    /**
     * @throws IOException when the file cannot be read
     * @throws HostsFileException when a line is not an address (the message names the file and line), none is, or
     *     the file is not UTF-8 text of at most {@link #MAX_BYTES}
     */
    public static List<Address> read(Path file) throws IOException, HostsFileException {
        List<String> lines;
        try {
            lines = TextFile.read(file, MAX_BYTES).lines().toList();
        } catch (TextFile.BadTextException e) {
            throw new HostsFileException(file + ": " + e.getMessage());
        }
        List<Address> hosts = new ArrayList<>();
        Map<Address, Integer> lineOf = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).replaceFirst("#.*", "").strip();
            if (text.isEmpty()) {
                continue;
            }
            String at = file + ": line " + (i + 1) + ": '" + text + "': ";
            Address host;
            try {
                host = Address.parse(text);
            } catch (IllegalArgumentException e) {
                throw new HostsFileException(at + e.getMessage());
            }
            if (host.isUnspecified()) {
                throw new HostsFileException(at + "the unknown host cannot be a server or a candidate: name a host");
            }
            Integer first = lineOf.putIfAbsent(host, i + 1);
            if (first != null) {
                // Two forms of one address (10.0.0.1, ::ffff:10.0.0.1) too: a slip in the list (a server would send
                // twice).
                throw new HostsFileException(at + "the same host as line " + first);
            }
            hosts.add(host);
        }
        if (hosts.isEmpty()) {
            throw new HostsFileException(file + ": no addresses in it");
        }
        return hosts;
    }

    /** A hosts file whose content is wrong. */
    public static final class HostsFileException extends Exception {
        HostsFileException(String message) {
            super(message);
        }
    }
}
