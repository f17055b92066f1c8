package org.cloudtalk.solr.replica;

import java.time.Duration;
import java.util.Map;

/** Answers a CloudTalk query with each variable's address. The real one is {@link ClientHintSource}. */
public interface HintSource {
    /**
     * @throws HintException when there is no usable answer, with the fallback cause
     */
    Map<String, String> bindings(String queryText, Duration timeout) throws HintException, InterruptedException;

    /** No answer, and why. */
    final class HintException extends Exception {
        private final Fallback cause;

        public HintException(Fallback cause, String message, Throwable error) {
            super(message, error);
            this.cause = cause;
        }

        public Fallback fallback() {
            return cause;
        }
    }
}
