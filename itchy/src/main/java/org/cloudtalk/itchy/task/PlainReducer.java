package org.cloudtalk.itchy.task;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.Writables;

/** Runs the user's reducer as it is, for a job without Itchy, recording what it fails with (as {@link PlainMapper}). */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class PlainReducer extends Reducer<Object, Object, Object, Object> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> {
            Reducer user = (Reducer) Writables.newInstance(
                    context.getConfiguration().getClass(TaskKeys.USER_REDUCER, Reducer.class),
                    context.getConfiguration());
            user.run(context);
        });
    }
}
