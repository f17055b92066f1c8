package org.cloudtalk.itchy.mo;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.io.RawComparator;
import org.cloudtalk.itchy.store.ItchyStore;
import org.cloudtalk.itchy.store.RowBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an MO reduce task's stored values ahead of the reducer, on a background thread. The increment's map tasks
 * noted the keys they emitted ({@link TouchedKeys}); sorted with the job's comparators they are the keys this reducer
 * will visit, in order, so the reducer takes each key's values from the head of a queue instead of waiting for one
 * Get per key; each batch of keys is one {@link RowBatch} read. A key the notes lack is read directly: never wrong,
 * only slower.
 */
public final class StoredValuesPrefetch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoredValuesPrefetch.class);
    private static final int BATCH = 2000;
    private static final int BATCHES_AHEAD = 4;

    /** One key (serialized) and its stored MO cells, as the committed increments left them. */
    record Stored(byte[] key, Result result) {}

    private static final List<Stored> END = List.of();

    private final BlockingQueue<List<Stored>> batches = new ArrayBlockingQueue<>(BATCHES_AHEAD);
    private final Deque<Stored> current = new ArrayDeque<>();
    private final RawComparator<?> sort;
    private final RawComparator<?> grouping;
    private final Thread reader;
    private volatile Exception failure;
    private boolean ended;

    /**
     * @param notes the increment's {@link TouchedKeys} directory
     * @param partition this reduce task's partition
     */
    public StoredValuesPrefetch(
            Configuration conf,
            Connection connection,
            Path notes,
            int partition,
            RawComparator<?> sort,
            RawComparator<?> grouping,
            byte[] signature) {
        this.sort = sort;
        this.grouping = grouping;
        reader = new Thread(() -> read(conf, connection, notes, partition, signature), "itchy-mo-prefetch");
        reader.setDaemon(true);
        reader.start();
    }

    /** The stored cells of the serialized {@code key}, or null if the prefetch has no entry for it. */
    public Result take(byte[] key) throws IOException, InterruptedException {
        while (true) {
            while (!current.isEmpty()) {
                byte[] head = current.peek().key();
                if (TouchedKeys.compare(grouping, head, key) == 0) {
                    return current.poll().result();
                }
                if (TouchedKeys.compare(sort, head, key) > 0) {
                    return null; // the key was not noted: the reducer reads it directly
                }
                // Noted but never reduced, e.g. a key the combiner dropped.
                log.debug("MO prefetch: a noted key was not reduced");
                current.poll();
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

    private void read(Configuration conf, Connection connection, Path notes, int partition, byte[] signature) {
        try (Table table = connection.getTable(ItchyStore.table(conf));
                TouchedKeys.Reader keys = new TouchedKeys.Reader(conf, notes, partition, sort, grouping)) {
            List<byte[]> batchKeys = new ArrayList<>(BATCH);
            boolean more = true;
            while (more) {
                byte[] key = keys.next();
                more = key != null;
                if (more) {
                    batchKeys.add(key);
                }
                if (batchKeys.size() == BATCH || (!more && !batchKeys.isEmpty())) {
                    List<Result> results = RowBatch.read(table, ItchyStore.MO, signature, batchKeys);
                    List<Stored> batch = new ArrayList<>(batchKeys.size());
                    for (int i = 0; i < batchKeys.size(); i++) {
                        batch.add(new Stored(batchKeys.get(i), results.get(i)));
                    }
                    batches.put(batch);
                    batchKeys = new ArrayList<>(BATCH);
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
