package org.cloudtalk.server.eval;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.deadline.DeadlineExceededException;
import org.cloudtalk.server.state.ClusterState;

/**
 * Runs an evaluator only while holding one of a few permits, one per processor. The server has many workers because
 * gathering status waits on the network; evaluation only computes, and more of it at once than there are processors
 * would only slice the processors finer, starving the event loop that must send the answers (and the 503s at their
 * deadlines) of its share. Waiting for a permit counts against the deadline.
 *
 * <p>Concurrency: the permits are a fair semaphore shared by the flow and exhaustive evaluators of a server (refined
 * has permits of its own).
 */
public final class ProcessorBound implements Evaluator {
    private final Evaluator evaluator;
    private final Semaphore processors;

    public ProcessorBound(Evaluator evaluator, Semaphore processors) {
        this.evaluator = requireNonNull(evaluator, "evaluator is null");
        this.processors = requireNonNull(processors, "processors is null");
    }

    @Override
    public Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline) {
        try {
            if (!processors.tryAcquire(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new DeadlineExceededException();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping: give up as if out of time
            throw new DeadlineExceededException();
        }
        try {
            return evaluator.evaluate(query, state, deadline);
        } finally {
            processors.release();
        }
    }
}
