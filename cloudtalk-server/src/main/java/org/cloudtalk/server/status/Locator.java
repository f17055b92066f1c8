package org.cloudtalk.server.status;

import java.net.InetSocketAddress;
import java.util.Optional;
import org.cloudtalk.lang.ast.Address;

/** Finds the status daemon that reports on an endpoint address. */
public interface Locator {
    /** Empty when no daemon is known for the address (it then counts as heavily loaded). */
    Optional<InetSocketAddress> locate(Address address);
}
