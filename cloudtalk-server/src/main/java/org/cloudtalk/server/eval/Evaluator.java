package org.cloudtalk.server.eval;

import org.cloudtalk.server.state.ClusterState;

/** Chooses a binding for a query's variables given the hosts' load. Implementations are thread-safe. */
public interface Evaluator {
    Evaluation evaluate(QueryModel query, ClusterState state);
}
