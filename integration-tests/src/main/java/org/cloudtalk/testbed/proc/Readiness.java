package org.cloudtalk.testbed.proc;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.state.StartedProcess;

/** Whether a system the testbed started (HDFS, YARN, SolrCloud, ZooKeeper) is ready, as a probe of it tells. */
@FunctionalInterface
public interface Readiness {
    /** Why the system is not ready yet; empty when it is. */
    Optional<String> notReady() throws IOException;

    /**
     * Waits until {@code readiness} has nothing to report, probing every 500 ms, failing at once with the log of one
     * of {@code processes} that exited, and after {@code timeout} with the last reason ({@code probe} names what a
     * failed probe asked, e.g. {@code /jmx}).
     */
    static void await(
            Testbed testbed,
            String system,
            List<StartedProcess> processes,
            Duration timeout,
            String probe,
            Readiness readiness) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (true) {
            for (StartedProcess process : processes) {
                if (process.handle().isEmpty()) {
                    throw new TestbedException(
                            process.role() + " exited while " + system + " was starting: " + process.logTail());
                }
            }
            try {
                Optional<String> notReady = readiness.notReady();
                if (notReady.isEmpty()) {
                    return;
                }
                last = notReady.get();
            } catch (IOException e) {
                last = probe + ": " + e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new TestbedException(system + " was not ready within " + timeout.toSeconds() + " s (" + last
                        + "); see " + testbed.runDir().resolve("logs"));
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TestbedException("interrupted", e);
            }
        }
    }
}
