package org.cloudtalk.itchy.task;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.cloudtalk.itchy.technique.TaskKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exception a task of an Itchy job failed with, as the driver sees it: the class name and message of the task's
 * exception (and of its causes), with its stack trace. Tasks run in other JVMs on a cluster, and Hadoop gives the
 * driver only diagnostics text ("NA" under the local job runner), so each task writes what it failed with into a
 * directory of the job ({@link #record}) and the driver makes the first one the cause of its error ({@link #first}).
 * Written as plain fields rather than Java serialization, so the driver never deserializes objects from files.
 */
public final class TaskFailure extends Exception {
    private static final Logger log = LoggerFactory.getLogger(TaskFailure.class);

    TaskFailure(String attempt, String description, StackTraceElement[] trace) {
        super("task " + attempt + " failed: " + description);
        setStackTrace(trace);
    }

    /** A task's work. */
    interface TaskBody {
        void run() throws IOException, InterruptedException;
    }

    /** Runs a task's whole work; what it fails with is recorded ({@link #record}) before it propagates. */
    static void recording(TaskAttemptContext context, TaskBody body) throws IOException, InterruptedException {
        try {
            body.run();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            record(context.getConfiguration(), context.getTaskAttemptID().toString(), e);
            throw e;
        }
    }

    /** Best effort, from a task about to fail: the failure must still reach Hadoop if this cannot be written. */
    static void record(Configuration conf, String attempt, Throwable failure) {
        String dir = conf.get(TaskKeys.FAILURES);
        if (dir == null) {
            return;
        }
        Path file = new Path(dir, attempt);
        try (DataOutputStream out = file.getFileSystem(conf).create(file, true)) {
            StringBuilder description = new StringBuilder(failure.toString());
            for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); ) {
                description.append("; caused by ").append(cause);
                cause = cause.getCause();
            }
            out.writeUTF(description.toString());
            StackTraceElement[] trace = failure.getStackTrace();
            out.writeInt(trace.length);
            for (StackTraceElement frame : trace) {
                out.writeUTF(frame.getClassName());
                out.writeUTF(frame.getMethodName());
                out.writeUTF(String.valueOf(frame.getFileName()));
                out.writeInt(frame.getLineNumber());
            }
        } catch (IOException | RuntimeException e) {
            log.warn("could not record the failure of task {} in {}: {}", attempt, dir, e.toString());
        }
    }

    /** The failure of the first task attempt that recorded one under {@code dir}, if any. */
    public static Optional<TaskFailure> first(Configuration conf, Path dir) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        if (!fs.exists(dir)) {
            return Optional.empty();
        }
        FileStatus[] files = fs.listStatus(dir);
        Arrays.sort(files, Comparator.comparing(FileStatus::getModificationTime));
        for (FileStatus file : files) {
            try (DataInputStream in = fs.open(file.getPath())) {
                String description = in.readUTF();
                StackTraceElement[] trace = new StackTraceElement[in.readInt()];
                for (int i = 0; i < trace.length; i++) {
                    String type = in.readUTF();
                    String method = in.readUTF();
                    String source = in.readUTF();
                    trace[i] = new StackTraceElement(type, method, source.equals("null") ? null : source, in.readInt());
                }
                return Optional.of(new TaskFailure(file.getPath().getName(), description, trace));
            } catch (IOException partial) {
                log.debug("skipping an unreadable task failure record {}: {}", file.getPath(), partial.toString());
            }
        }
        return Optional.empty();
    }
}
