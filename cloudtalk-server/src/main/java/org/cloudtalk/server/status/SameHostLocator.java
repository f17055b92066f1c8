package org.cloudtalk.server.status;

import java.net.InetSocketAddress;
import java.util.Optional;
import org.cloudtalk.lang.ast.Address;

/** The paper's in-VM deployment: every endpoint runs its own daemon, on its own address at a fixed port. */
public final class SameHostLocator implements Locator {
    private final int port;

    public SameHostLocator(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1-65535: " + port);
        }
        this.port = port;
    }

    @Override
    public Optional<InetSocketAddress> locate(Address address) {
        return Optional.of(new InetSocketAddress(address.toInetAddress(), port));
    }
}
