package org.cloudtalk.server.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;
import org.cloudtalk.lang.print.QueryPrinter;

/**
 * §4.3: when the candidates of a query span more than {@code threshold} hosts, ask only a random sample of
 * {@code sampleSize} of them (at least two per variable), since the number of samples needed depends on the load and
 * the number of variables, not on how many hosts there are. Variables keep only their sampled candidates; one left
 * with fewer than it needs gets more of its own at random.
 */
public record Sampling(int threshold, int sampleSize) {
    public static final Sampling DEFAULT = new Sampling(100, 30);

    public Sampling {
        if (threshold < 1 || sampleSize < 1) {
            throw new IllegalArgumentException("sampling threshold and size must be positive");
        }
    }

    /** The query to evaluate: the same query, or one whose candidate lists are cut to a random sample. */
    public Query apply(Query query, Random random) {
        Set<String> hosts = new LinkedHashSet<>();
        int variables = 0;
        for (VariableDeclaration declaration : query.declarations()) {
            variables += declaration.names().size();
            for (Endpoint candidate : declaration.candidates()) {
                if (candidate instanceof Endpoint.Host) {
                    hosts.add(QueryPrinter.print(candidate));
                }
            }
        }
        if (hosts.size() <= threshold) {
            return query;
        }
        List<String> shuffled = new ArrayList<>(hosts);
        Collections.shuffle(shuffled, random);
        Set<String> sample = new LinkedHashSet<>(
                shuffled.subList(0, Math.min(shuffled.size(), Math.max(sampleSize, 2 * variables))));
        List<VariableDeclaration> declarations = new ArrayList<>();
        for (VariableDeclaration declaration : query.declarations()) {
            List<Endpoint> kept = new ArrayList<>();
            List<Endpoint> dropped = new ArrayList<>();
            for (Endpoint candidate : declaration.candidates()) {
                boolean keep = !(candidate instanceof Endpoint.Host) || sample.contains(QueryPrinter.print(candidate));
                (keep ? kept : dropped).add(candidate);
            }
            int needed = Math.min(
                    declaration.candidates().size(), 2 * declaration.names().size());
            Collections.shuffle(dropped, random);
            for (int i = 0; kept.size() < needed && i < dropped.size(); i++) {
                kept.add(dropped.get(i));
            }
            declarations.add(
                    new VariableDeclaration(declaration.names(), kept, declaration.shared(), declaration.span()));
        }
        return new Query(declarations, query.flows());
    }
}
