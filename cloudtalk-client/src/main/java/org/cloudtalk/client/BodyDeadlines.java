package org.cloudtalk.client;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends the answers whose bodies outlive their call's deadline. The request's own timeout stops counting once the
 * headers have arrived, so a server that stalls in the body would hold a call for good. A timer per call would wake a
 * thread twice per call (arming and cancelling), which a NameNode asking per block pays for in throughput; instead one
 * daemon thread looks over the bodies being read every {@link #TICK_NANOS}, and sleeps while none is.
 *
 * <p>Concurrency: thread-safe. Bodies come and go from any thread; the watcher parks when it finds none, and the first
 * body to come after that wakes it (an unpark before the park is kept by the thread's permit).
 */
final class BodyDeadlines {
    /** How late past its deadline a stalled body may end: far below any deadline that matters to a stall. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** A body being read. */
    interface Watched {
        long endNanos();

        /** Called once its deadline has passed while it was still being read. */
        void expire();
    }

    private static final Set<Watched> READING = ConcurrentHashMap.newKeySet();
    private static final Thread WATCHER = watcher();
    private static volatile boolean idle;

    private BodyDeadlines() {}

    static void watch(Watched body) {
        READING.add(body);
        if (idle) {
            LockSupport.unpark(WATCHER);
        }
    }

    static void done(Watched body) {
        READING.remove(body);
    }

    private static Thread watcher() {
        Thread thread = new Thread(BodyDeadlines::run, "cloudtalk-client-body-deadlines");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void run() {
        while (true) {
            if (READING.isEmpty()) {
                idle = true;
                // Re-checked after announcing the idle state: a body added in between has unparked this thread.
                if (READING.isEmpty()) {
                    LockSupport.park();
                }
                idle = false;
            } else {
                LockSupport.parkNanos(TICK_NANOS);
            }
            long now = System.nanoTime();
            for (Watched body : READING) {
                if (now - body.endNanos() >= 0) {
                    READING.remove(body);
                    body.expire();
                }
            }
        }
    }
}
