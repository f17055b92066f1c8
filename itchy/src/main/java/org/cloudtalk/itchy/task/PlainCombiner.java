package org.cloudtalk.itchy.task;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Reducer;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's combiner as it is (MO, Merge and jobs without Itchy), recording what it fails with
 * ({@link TaskFailure}): it runs while the map task spills, after the mapper's own recording ended, and its failure
 * would otherwise reach the driver as Hadoop's "NA".
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class PlainCombiner extends Reducer<Object, Object, Object, Object> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> {
            Reducer user = (Reducer) Writables.newInstance(
                    context.getConfiguration().getClass(TaskKeys.USER_COMBINER, Reducer.class),
                    context.getConfiguration());
            user.run(context);
        });
    }
}
