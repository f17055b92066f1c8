package org.cloudtalk.solr.replica;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import org.cloudtalk.client.CloudTalkClient;
import org.cloudtalk.client.CloudTalkException;
import org.cloudtalk.client.api.EvaluatorName;

/** Asks a CloudTalk server with dynamic load information. */
public final class ClientHintSource implements HintSource {
    private final CloudTalkClient client;
    private final EvaluatorName evaluator;

    public ClientHintSource(CloudTalkClient client, EvaluatorName evaluator) {
        this.client = requireNonNull(client, "client is null");
        this.evaluator = requireNonNull(evaluator, "evaluator is null");
    }

    @Override
    public Map<String, String> bindings(String queryText, Duration timeout) throws HintException, InterruptedException {
        try {
            return client.query(queryText, evaluator, false, false, timeout).bindings();
        } catch (CloudTalkException e) {
            Fallback cause =
                    switch (e.kind()) {
                        case UNAVAILABLE -> "TIMEOUT".equals(e.code()) ? Fallback.DEADLINE : Fallback.UNAVAILABLE;
                        case QUERY_ERROR, REFUSED, RATE_LIMITED -> Fallback.REJECTED;
                    };
            throw new HintException(cause, e.code() + ": " + e.getMessage(), e);
        }
    }
}
