package org.cloudtalk.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;

/**
 * A status source whose every gather is counted, whatever becomes of the query that asked: one that then times out or
 * is refused still had its statuses asked of the daemons, and the status metrics must show that traffic.
 */
public final class CountedStatusSource implements StatusSource {
    /** Receives each gather's figures. */
    @FunctionalInterface
    public interface Counter {
        void gathered(int asked, int answered, int reused);
    }

    private final StatusSource source;
    private final Counter counter;

    public CountedStatusSource(StatusSource source, Counter counter) {
        this.source = requireNonNull(source, "source is null");
        this.counter = requireNonNull(counter, "counter is null");
    }

    @Override
    public Gathered gather(Set<Address> addresses, Duration wait) throws InterruptedException {
        Gathered gathered = source.gather(addresses, wait);
        counter.gathered(gathered.asked(), gathered.answered(), gathered.reused());
        return gathered;
    }

    @Override
    public long rejected() {
        return source.rejected();
    }

    @Override
    public long stale() {
        return source.stale();
    }

    @Override
    public void close() {
        source.close();
    }
}
