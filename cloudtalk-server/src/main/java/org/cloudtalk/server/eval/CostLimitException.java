package org.cloudtalk.server.eval;

/** A query whose evaluation would cost more than a configured limit allows; the message names the limit. */
public final class CostLimitException extends EvaluationException {
    public CostLimitException(String message) {
        super(message);
    }
}
