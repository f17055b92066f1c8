package org.cloudtalk.server.eval;

/** A valid query that cannot be answered as asked, e.g. more distinct variables than candidates. */
public class EvaluationException extends RuntimeException {
    public EvaluationException(String message) {
        super(message);
    }
}
