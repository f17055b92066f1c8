package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an MO reduce task's stored values ahead of the reducer, on a background thread. The key pass wrote this
 * partition's distinct keys in the order the reducer will visit them (same partitioner, same sort), so the reducer
 * can take each key's values from the head of a queue instead of waiting for one Get per key; each batch of keys is
 * one {@link RowBatch} read. A key missing from the queue (which would be a bug) falls back to a direct Get: never
 * wrong, only slower.
 */
final class StoredValuesPrefetch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoredValuesPrefetch.class);
    private static final int BATCH = 2000;
    private static final int BATCHES_AHEAD = 4;

    /** One key's row and its stored MO cells, as the committed increments left them. */
    record Stored(byte[] row, Result result) {}

    private static final List<Stored> END = List.of();

    private final BlockingQueue<List<Stored>> batches = new ArrayBlockingQueue<>(BATCHES_AHEAD);
    private final Deque<Stored> current = new ArrayDeque<>();
    private final Thread reader;
    private volatile Exception failure;
    private boolean ended;

    StoredValuesPrefetch(Configuration conf, Connection connection, Path keyFile, byte[] signature) {
        reader = new Thread(() -> read(conf, connection, keyFile, signature), "itchy-mo-prefetch");
        reader.setDaemon(true);
        reader.start();
    }

    /** The stored cells of {@code row}, or null if the prefetch has no entry for it. */
    Result take(byte[] row) throws IOException, InterruptedException {
        while (true) {
            while (!current.isEmpty()) {
                Stored head = current.poll();
                if (Arrays.equals(head.row(), row)) {
                    return head.result();
                }
                log.warn("MO prefetch skipped a key the reducer did not visit; its values are read directly");
            }
            if (ended) {
                return null;
            }
            List<Stored> next = batches.take();
            if (next == END) {
                ended = true;
                if (failure != null) {
                    throw new IOException("reading stored MO values ahead failed", failure);
                }
            }
            current.addAll(next);
        }
    }

    private void read(Configuration conf, Connection connection, Path keyFile, byte[] signature) {
        try (Table table = connection.getTable(IncrementalStore.table(conf));
                SequenceFile.Reader keys = new SequenceFile.Reader(conf, SequenceFile.Reader.file(keyFile))) {
            BytesWritable key = new BytesWritable();
            List<byte[]> rows = new ArrayList<>(BATCH);
            boolean more = true;
            while (more) {
                more = keys.next(key, NullWritable.get());
                if (more) {
                    rows.add(IncrementalStore.row(signature, key.copyBytes()));
                }
                if (rows.size() == BATCH || (!more && !rows.isEmpty())) {
                    List<Result> results = RowBatch.read(table, IncrementalStore.MO, rows);
                    List<Stored> batch = new ArrayList<>(rows.size());
                    for (int i = 0; i < rows.size(); i++) {
                        batch.add(new Stored(rows.get(i), results.get(i)));
                    }
                    batches.put(batch);
                    rows = new ArrayList<>(BATCH);
                }
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            try {
                batches.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        reader.interrupt();
        while (reader.isAlive()) {
            batches.clear(); // unblocks a reader waiting to hand over a batch nobody will take
            reader.join(100);
        }
    }
}
