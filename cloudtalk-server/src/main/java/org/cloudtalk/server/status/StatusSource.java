package org.cloudtalk.server.status;

import java.time.Duration;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;

/**
 * Where host load comes from: the status daemons over UDP in production, a file for tests, demos and
 * {@code info=static}. Implementations are thread-safe; {@link #gather} blocks for at most {@code wait}.
 */
public interface StatusSource extends AutoCloseable {
    /** The load of each address; an address without an answer in time is reported heavily loaded. */
    Gathered gather(Set<Address> addresses, Duration wait) throws InterruptedException;

    /** What a gather found, and how many figures were asked for, answered fresh, or reused from recent replies. */
    record Gathered(ClusterState state, int asked, int answered, int reused) {}

    /** Status datagrams dropped as not authentic or not answering a pending request (0 where there are none). */
    default long rejected() {
        return 0;
    }

    /** Statuses received with a sample too old to use, counted as missing (0 where samples do not age). */
    default long stale() {
        return 0;
    }

    @Override
    default void close() {}
}
