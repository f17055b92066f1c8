package org.cloudtalk.itchy.technique;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a driver's independent remote calls a few at a time: each waits mostly on a round trip (a NameNode, a DataNode,
 * a region server), so one after another leaves both ends idle.
 */
public final class Parallel {
    /** One call; may fail with an {@link IOException}, which {@link #map} rethrows as it is. */
    @FunctionalInterface
    public interface Call<T, R> {
        R apply(T item) throws IOException;
    }

    private Parallel() {}

    /** The calls' results, in the items' order; the first failure is rethrown and the other calls are interrupted. */
    public static <T, R> List<R> map(int threads, List<T> items, String what, Call<T, R> call) throws IOException {
        if (items.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, items.size())));
        try {
            List<Future<R>> pending = new ArrayList<>(items.size());
            for (T item : items) {
                pending.add(pool.submit(() -> call.apply(item)));
            }
            List<R> results = new ArrayList<>(items.size());
            for (Future<R> result : pending) {
                results.add(result.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(what + " failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
