package org.cloudtalk.itchy.qmc;

import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;

/** The QMC key pass's output: serialized intermediate keys in SequenceFile parts. */
public final class KeyFiles {
    private KeyFiles() {}

    /** Calls {@code each} with every key (a reused instance: copy what you keep). */
    public static void forEach(Configuration conf, Path dir, Consumer<BytesWritable> each) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        for (FileStatus part : fs.listStatus(dir, path -> path.getName().startsWith("part-"))) {
            try (SequenceFile.Reader reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(part.getPath()))) {
                BytesWritable key = new BytesWritable();
                while (reader.next(key, NullWritable.get())) {
                    each.accept(key);
                }
            }
        }
    }
}
