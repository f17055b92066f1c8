package org.cloudtalk.server.eval;

import org.cloudtalk.server.deadline.Deadline;
import org.cloudtalk.server.state.ClusterState;

/** Chooses a binding for a query's variables given the hosts' load. Implementations are thread-safe. */
public interface Evaluator {
    /**
     * @throws org.cloudtalk.server.deadline.DeadlineExceededException when {@code deadline} passes first (checked
     *     cooperatively, between units of work)
     */
    Evaluation evaluate(QueryModel query, ClusterState state, Deadline deadline);

    default Evaluation evaluate(QueryModel query, ClusterState state) {
        return evaluate(query, state, Deadline.none());
    }
}
