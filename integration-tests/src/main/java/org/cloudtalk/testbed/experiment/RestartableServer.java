package org.cloudtalk.testbed.experiment;

import java.net.URI;

/**
 * A run's CloudTalk server, which a workload may stop and start again (same address and port), also from another
 * thread: once closed, it is never started again.
 */
final class RestartableServer implements AutoCloseable {
    private ServerProcess process;
    private boolean closed;

    RestartableServer(ServerProcess process) {
        this.process = process;
    }

    synchronized URI uri() {
        return process.uri();
    }

    /** Stops the server: the plugins find nothing listening. */
    synchronized void stop() {
        process.close();
    }

    /** Starts it again where it was, once it answers; nothing after {@link #close}. */
    synchronized void restart() {
        if (!closed) {
            process = process.relaunch();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        process.close();
    }
}
