package org.cloudtalk.server.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;

/**
 * Random tie-breaking for evaluators that break ties by candidate position (the heuristic takes the last of equal
 * scores, as Listing 1 does): the same query with each candidate list in random order. Without it, once every candidate
 * carries the same reservations, every answer names the same host.
 */
final class TieBreaking {
    private TieBreaking() {}

    static Query shuffle(Query query, Random random) {
        List<VariableDeclaration> declarations =
                new ArrayList<>(query.declarations().size());
        for (VariableDeclaration declaration : query.declarations()) {
            List<Endpoint> candidates = new ArrayList<>(declaration.candidates());
            Collections.shuffle(candidates, random);
            declarations.add(
                    new VariableDeclaration(declaration.names(), candidates, declaration.shared(), declaration.span()));
        }
        return new Query(declarations, query.flows());
    }
}
