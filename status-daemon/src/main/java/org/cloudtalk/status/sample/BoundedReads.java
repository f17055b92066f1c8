package org.cloudtalk.status.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Counter-file reads with a deadline. A read of {@code /proc} or {@code /sys} can block (a wedged driver, a hung
 * device, a file system that stopped answering); done on the sampler thread, it would freeze the published sample,
 * and the daemon would keep answering with the last figures, "idle" perhaps, for ever. Here each read runs on a reader
 * thread and the sampler waits at most {@code timeout}; a read that misses it fails with an {@link IOException}, which
 * the sampler reports as full use, and while it stays blocked every later read fails at once instead of queueing
 * behind it (one stuck thread at most).
 *
 * <p>Concurrency: {@link #readString} and {@link #readAllLines} are called by one thread (the sampler's); the reader
 * thread only runs the submitted reads and stamps {@code readAt} (volatile).
 */
public final class BoundedReads implements AutoCloseable {
    private final long timeoutNanos;
    private final ExecutorService reader;
    private Future<?> blocked;
    /** When the last read finished, written by the reader thread. */
    private volatile long readAt;

    public BoundedReads(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        this.reader = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "status-counter-reader");
            thread.setDaemon(true);
            return thread;
        });
    }

    String readString(Path path) throws IOException {
        return read(path, () -> Files.readString(path));
    }

    List<String> readAllLines(Path path) throws IOException {
        return read(path, () -> Files.readAllLines(path));
    }

    private <T> T read(Path path, Callable<T> read) throws IOException {
        if (blocked != null) {
            if (!blocked.isDone()) {
                throw new IOException("an earlier counter read is still blocked; not reading " + path);
            }
            blocked = null;
        }
        Future<T> result = reader.submit(() -> {
            T value = read.call();
            readAt = System.nanoTime();
            return value;
        });
        try {
            return result.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            blocked = result;
            throw new IOException("reading " + path + " took over " + timeoutNanos / 1_000_000 + " ms");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot read " + path, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.cancel(true);
            throw new IOException("interrupted while reading " + path, e);
        }
    }

    /**
     * When the last successful read finished: the time to rate its counter against, since the hand-off to and from
     * the reader thread may take a while on a loaded host.
     */
    long lastReadNanos() {
        return readAt;
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
