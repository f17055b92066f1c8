package org.cloudtalk.itchy.task;

import java.io.IOException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.MapContext;
import org.cloudtalk.itchy.qmc.IncrementInputFormat.OffsetSplit;

/**
 * The inputs a map task runs the user's mapper over, each as the split of a task of its own: an ordinary split is one;
 * a QMC increment's {@link OffsetSplit}, which gives one task the relevant records of several base files, is one per
 * file part. Per part the mapper sees that part's split and only its records, so a mapper that reads its split's file
 * name in {@code setup()}, or keeps state until {@code cleanup()}, behaves as it did in the first job.
 */
final class InputParts {
    private final MapContext<?, ?, ?, ?> context;
    /** The task's split if it combines parts, else null. */
    private final OffsetSplit combined;

    private int part = -1;
    /** The reader holds the first record of the next part, read while looking for the end of the current one. */
    private boolean pending;
    /** The current part has no more records. */
    private boolean ended;

    InputParts(MapContext<?, ?, ?, ?> context) {
        this.context = context;
        this.combined = context.getInputSplit() instanceof OffsetSplit split ? split : null;
    }

    /** Moves to the next part; false after the last. Records of the current part its mapper left unread are skipped. */
    boolean next() throws IOException, InterruptedException {
        if (combined == null) {
            return ++part == 0;
        }
        if (part < 0) {
            pending = context.nextKeyValue();
        } else {
            while (nextKeyValue()) {
                // a mapper that stopped early: its task would not have mapped the rest either
            }
        }
        if (!pending) {
            return false;
        }
        part = combined.partBeingRead();
        ended = false;
        return true;
    }

    /** Whether the task's split combines parts (an {@link OffsetSplit}). */
    boolean combined() {
        return combined != null;
    }

    /** The current part's split, as its own task would have had it. */
    InputSplit split() {
        return combined == null ? context.getInputSplit() : combined.part(part);
    }

    /** The next record of the current part; false at its end. */
    boolean nextKeyValue() throws IOException, InterruptedException {
        if (combined == null) {
            return context.nextKeyValue();
        }
        if (ended) {
            return false;
        }
        if (pending) {
            pending = false;
            return true;
        }
        if (!context.nextKeyValue()) {
            ended = true;
            return false;
        }
        if (combined.partBeingRead() != part) {
            pending = true;
            ended = true;
            return false;
        }
        return true;
    }
}
