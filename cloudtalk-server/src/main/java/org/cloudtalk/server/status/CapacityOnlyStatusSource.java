package org.cloudtalk.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.server.state.ClusterState;
import org.cloudtalk.server.state.HostLoad;

/** {@code info=static} without a status file: the hosts' capacities as their daemons report them, use ignored. */
public final class CapacityOnlyStatusSource implements StatusSource {
    private final StatusSource delegate;

    public CapacityOnlyStatusSource(StatusSource delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public Gathered gather(Set<Address> addresses, Duration wait) throws InterruptedException {
        Gathered gathered = delegate.gather(addresses, wait);
        Map<String, HostLoad> idle = new HashMap<>();
        gathered.state()
                .hosts()
                .forEach((address, load) -> idle.put(
                        address,
                        new HostLoad(
                                load.rxCapacity(),
                                0,
                                load.txCapacity(),
                                0,
                                load.diskReadCapacity(),
                                0,
                                load.diskWriteCapacity(),
                                0)));
        return new Gathered(new ClusterState(idle), gathered.asked(), gathered.answered(), gathered.reused());
    }
}
