package org.cloudtalk.hadoop.hint;

import static java.util.Objects.requireNonNull;

import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * A query with the text sent for it, printed once: a plugin that asks the same query again (a NameNode asks for every
 * block, with the same writer and candidates) keeps this and pays for building, validating and printing it only once.
 */
public record PrintedQuery(Query query, String text) {
    public PrintedQuery {
        requireNonNull(query, "query is null");
        requireNonNull(text, "text is null");
    }

    /** @throws RuntimeException if the query cannot be printed (a bug: every built query can) */
    public static PrintedQuery of(Query query) {
        return new PrintedQuery(query, QueryPrinter.print(query));
    }
}
