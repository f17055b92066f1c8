package org.cloudtalk.server.status;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.lang.ast.Address;

/**
 * A map file from endpoint to daemon, one {@code ENDPOINT DAEMON_IP:PORT} per line ({@code #} comments), e.g. a
 * hypervisor's daemon answering for its VMs' addresses.
 */
public final class StaticMapLocator implements Locator {
    private final Map<Address, InetSocketAddress> daemons;

    private StaticMapLocator(Map<Address, InetSocketAddress> daemons) {
        this.daemons = Map.copyOf(daemons);
    }

    public static StaticMapLocator read(Path file) throws IOException {
        Map<Address, InetSocketAddress> daemons = new HashMap<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\\s+");
            int colon = fields.length == 2 ? fields[1].lastIndexOf(':') : -1;
            try {
                if (colon < 0) {
                    throw new IllegalArgumentException("expected ENDPOINT DAEMON_IP:PORT");
                }
                Address endpoint = Address.parse(fields[0]);
                String daemonHost =
                        fields[1].substring(0, colon).replace("[", "").replace("]", "");
                int port = Integer.parseInt(fields[1].substring(colon + 1));
                daemons.put(
                        endpoint,
                        new InetSocketAddress(Address.parse(daemonHost).toInetAddress(), port));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " line " + (i + 1) + ": " + e.getMessage() + ": " + line);
            }
        }
        return new StaticMapLocator(daemons);
    }

    @Override
    public Optional<InetSocketAddress> locate(Address address) {
        return Optional.ofNullable(daemons.get(address));
    }
}
