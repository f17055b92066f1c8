package org.cloudtalk.itchy.task;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Mapper;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.cloudtalk.itchy.technique.Writables;

/**
 * Runs the user's mapper as it is, for a job without Itchy ({@code itchy.mode=off}), recording what it fails with
 * ({@link TaskFailure}) so that the driver's error names the task's own exception rather than Hadoop's "NA".
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class PlainMapper extends Mapper<Object, Object, Object, Object> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        TaskFailure.recording(context, () -> {
            Mapper user = (Mapper) Writables.newInstance(
                    context.getConfiguration().getClass(TaskKeys.USER_MAPPER, Mapper.class),
                    context.getConfiguration());
            user.run(context);
        });
    }
}
