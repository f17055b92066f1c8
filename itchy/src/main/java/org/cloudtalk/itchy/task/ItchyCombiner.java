package org.cloudtalk.itchy.task;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's combiner (§5.9) on keys with several values. Its output values are wrapped again, and all offsets of
 * the values it combined are attached to the first value it emits for the key, so QMC keeps every offset through
 * combining.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyCombiner extends Reducer<Object, ItchyValue, Object, ItchyValue> {
    /** Records what the user's combiner fails with ({@link TaskFailure}), as {@link PlainCombiner} does. */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> combine(context));
    }

    private void combine(Context context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        Reducer user = (Reducer) Writables.newInstance(conf.getClass(TaskKeys.USER_COMBINER, Reducer.class), conf);
        UserValues.Factory values =
                new UserValues.Factory(conf.getClass(TaskKeys.USER_MAP_VALUE, Writable.class), conf);
        Writables writables = new Writables();
        ItchyValue out = new ItchyValue();
        UserValues[] current = {null};
        boolean[] offsetsAttached = {false};
        Reducer.Context wrapped = new WrappedReducer().new Context(context) {
            @Override
            public boolean nextKey() throws IOException, InterruptedException {
                if (current[0] != null) {
                    current[0].drain();
                }
                current[0] = null;
                offsetsAttached[0] = false;
                while (context.nextKey()) {
                    Iterator<ItchyValue> shuffled = context.getValues().iterator();
                    ItchyValue first = shuffled.next();
                    if (shuffled.hasNext()) {
                        current[0] = values.of(followedBy(first, shuffled), List.of(), false, null);
                        return true;
                    }
                    // Hadoop may run a combiner on any subset of a key's values, or on none, so a lone value goes
                    // through as it is, offsets included: most keys of a spill have one value, and unwrapping,
                    // combining and re-wrapping each was most of a QMC first job's extra cost.
                    context.write(context.getCurrentKey(), first);
                }
                return false;
            }

            @Override
            public Iterable getValues() {
                return current[0];
            }

            @Override
            public void write(Object key, Object value) throws IOException, InterruptedException {
                DataOutputBuffer serialized = writables.serialize((Writable) value);
                out.set(serialized.getData(), serialized.getLength());
                if (!offsetsAttached[0] && current[0] != null) {
                    // The user's code has read the values by now; whatever it skipped is read for its offsets.
                    current[0].drain();
                    UserValues.OffsetList offsets = current[0].offsets();
                    for (int i = 0; i < offsets.size; i++) {
                        out.addOffset(offsets.datasets[i], offsets.offsets[i]);
                    }
                    offsetsAttached[0] = true;
                }
                context.write(key, out);
            }
        };
        user.run(wrapped);
    }

    /** {@code first}, then what {@code rest} has left; {@code first} must be used before {@code rest} moves on. */
    private static Iterable<ItchyValue> followedBy(ItchyValue first, Iterator<ItchyValue> rest) {
        Iterator<ItchyValue> values = new Iterator<>() {
            private boolean firstTaken;

            @Override
            public boolean hasNext() {
                return !firstTaken || rest.hasNext();
            }

            @Override
            public ItchyValue next() {
                if (!firstTaken) {
                    firstTaken = true;
                    return first;
                }
                return rest.next();
            }
        };
        return () -> values;
    }
}
