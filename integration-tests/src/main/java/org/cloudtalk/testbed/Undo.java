package org.cloudtalk.testbed;

import java.util.function.Consumer;

/** Putting several things back: each is tried whatever failed before it, and the first failure carries the rest. */
public final class Undo {
    private Undo() {}

    /** Runs {@code undo} on each of {@code items}; throws the first failure, the later ones suppressed in it. */
    public static <T> void each(Iterable<T> items, Consumer<? super T> undo) {
        RuntimeException failure = null;
        for (T item : items) {
            try {
                undo.accept(item);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Runs {@code change}; when it fails part-way, runs {@code undo} too (its failure suppressed) and rethrows. */
    public static void onFailure(Runnable change, Runnable undo) {
        try {
            change.run();
        } catch (RuntimeException e) {
            try {
                undo.run();
            } catch (RuntimeException undoing) {
                e.addSuppressed(undoing);
            }
            throw e;
        }
    }
}
