package org.cloudtalk.solr.replica;

/** What the advisor reports; the Solr adapter backs it with Solr's metrics registry. Implementations are thread-safe. */
public interface AdvisorMetrics {
    /** A query was sent to CloudTalk; {@code nanos} is its wall time, answered or not. */
    void queried(long nanos);

    /** A request was served from a cached answer. */
    void cacheHit();

    /** A request's replicas were ordered by CloudTalk's answer. */
    void answerUsed();

    /** A request kept Solr's order. */
    void fellBack(Fallback cause);

    AdvisorMetrics NONE = new AdvisorMetrics() {
        @Override
        public void queried(long nanos) {}

        @Override
        public void cacheHit() {}

        @Override
        public void answerUsed() {}

        @Override
        public void fellBack(Fallback cause) {}
    };
}
