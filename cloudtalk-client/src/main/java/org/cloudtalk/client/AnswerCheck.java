package org.cloudtalk.client;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.cloudtalk.lang.ast.Address;
import org.cloudtalk.lang.ast.Endpoint;
import org.cloudtalk.lang.ast.Query;
import org.cloudtalk.lang.ast.VariableDeclaration;

/**
 * Whether an answer fits the query it answers: every declared variable bound once and nothing else, each to one of
 * its candidates, and variables that are not {@code shared} to different hosts. A server's mistake (or something else
 * on its port) must not reach the caller as a placement.
 */
final class AnswerCheck {
    private static final String DISK = "disk";

    private AnswerCheck() {}

    /** What is wrong with {@code bindings} as an answer to {@code query}, or empty when nothing is. */
    static Optional<String> problem(Query query, Map<String, String> bindings) {
        Map<String, VariableDeclaration> declared = new HashMap<>();
        for (VariableDeclaration declaration : query.declarations()) {
            declaration.names().forEach(name -> declared.put(name.value(), declaration));
        }
        if (!bindings.keySet().equals(declared.keySet())) {
            return Optional.of("it binds " + bindings.keySet() + ", the query declares " + declared.keySet());
        }
        Set<String> taken = new HashSet<>();
        for (Map.Entry<String, String> binding : bindings.entrySet()) {
            VariableDeclaration declaration = declared.get(binding.getKey());
            Optional<String> value = canonical(binding.getValue());
            if (value.isEmpty() || !candidates(declaration).contains(value.get())) {
                return Optional.of(binding.getKey() + " = " + binding.getValue() + " is not one of its candidates");
            }
            if (!declaration.shared() && !value.get().equals(DISK) && !taken.add(value.get())) {
                return Optional.of(binding.getKey() + " = " + binding.getValue()
                        + " is bound to another variable too, and " + binding.getKey() + " is not shared");
            }
        }
        // A shared variable may take a host another variable has, and is not counted: checked above only among
        // the ones that may not share.
        return Optional.empty();
    }

    private static Set<String> candidates(VariableDeclaration declaration) {
        Set<String> candidates = new HashSet<>();
        for (Endpoint candidate : declaration.candidates()) {
            candidates.add(
                    candidate instanceof Endpoint.Host host ? host.address().text() : DISK);
        }
        return candidates;
    }

    private static Optional<String> canonical(String value) {
        if (value.equals(DISK)) {
            return Optional.of(DISK);
        }
        try {
            return Optional.of(Address.parse(value).text());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
