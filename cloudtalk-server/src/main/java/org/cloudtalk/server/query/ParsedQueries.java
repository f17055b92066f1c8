package org.cloudtalk.server.query;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.parser.QueryParser;

/**
 * The validated queries of texts asked recently, so that a client asking the same question again does not pay for
 * lexing, parsing and validating it each time: a NameNode asks for every block with the same writer, candidates and
 * block size, and those steps were about half of such a small query's time in the server. Queries are immutable, so
 * concurrent requests share one; a text that is not valid is not kept (its error is found again, the same).
 *
 * <p>Bounded by characters, not entries, so that what is kept grows with the texts, not their number: texts longer than
 * {@link #MAX_TEXT_CHARS} are parsed every time, and the least recently asked texts leave once the kept ones exceed
 * {@link #MAX_KEPT_CHARS} in all.
 *
 * <p>Concurrency: thread-safe; parsing runs outside the lock, so two requests with one new text may both parse it.
 */
final class ParsedQueries {
    static final int MAX_TEXT_CHARS = 16 * 1024;
    static final long MAX_KEPT_CHARS = 1024 * 1024;

    private final QueryParser parser;
    private final Map<String, Query> recent = new LinkedHashMap<>(64, 0.75f, true);
    private long keptChars;

    ParsedQueries(QueryParser parser) {
        this.parser = requireNonNull(parser, "parser is null");
    }

    /**
     * The query of {@code text}, parsed and validated.
     *
     * @throws org.cloudtalk.lang.QueryException for a text that is not a valid query
     */
    Query parse(String text) {
        if (text.length() > MAX_TEXT_CHARS) {
            return parser.parse(text);
        }
        synchronized (recent) {
            Query known = recent.get(text);
            if (known != null) {
                return known;
            }
        }
        Query parsed = parser.parse(text);
        synchronized (recent) {
            if (recent.put(text, parsed) == null) {
                keptChars += text.length();
            }
            Iterator<String> eldest = recent.keySet().iterator();
            while (keptChars > MAX_KEPT_CHARS) {
                keptChars -= eldest.next().length();
                eldest.remove();
            }
        }
        return parsed;
    }

    /** How many texts are kept now; for tests. */
    int size() {
        synchronized (recent) {
            return recent.size();
        }
    }
}
