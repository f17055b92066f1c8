package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;

/**
 * Runs the user's combiner (§5.9). Its output values are wrapped again, and all offsets of the values it combined are
 * attached to the first value it emits for the key, so QMC keeps every offset through combining.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class ItchyCombiner extends Reducer<Object, ItchyValue, Object, ItchyValue> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        Reducer user = (Reducer) Writables.newInstance(conf.getClass(ItchyConf.USER_COMBINER, Reducer.class), conf);
        UserValues.Factory values =
                new UserValues.Factory(conf.getClass(ItchyConf.USER_MAP_VALUE, Writable.class), conf);
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
                return context.nextKey();
            }

            @Override
            public Iterable getValues() throws IOException, InterruptedException {
                if (current[0] == null) { // Reducer.run asks again after reduce(): same values
                    current[0] = values.of(context.getValues(), List.of(), false, null);
                }
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
}
