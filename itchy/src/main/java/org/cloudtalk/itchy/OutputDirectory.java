package org.cloudtalk.itchy;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.cloudtalk.itchy.store.BulkCells;

/**
 * A run's output directory. MapReduce refuses an output directory that exists, so one that a failed run left behind
 * must go before the next run; but a run often has root's rights, so it deletes only what it can tell is such a
 * leftover: never a file, the root, a directory overlapping the run's input, or a directory holding anything a run
 * does not write.
 */
final class OutputDirectory {
    /** What a run writes into its output directory before it succeeds (checksum files are hidden by listings). */
    private static final Pattern RUN_ENTRY = Pattern.compile(
            "_temporary|" + Pattern.quote(BulkCells.DIR) + "|(part|deleted)-[mr]-\\d{5,}(\\.[A-Za-z0-9]+)?");

    private OutputDirectory() {}

    /**
     * Checks {@code output} against the run's {@code inputs} (files or directories) and removes a failed run's
     * leftover there.
     *
     * @throws ItchyException when the output is the root, overlaps an input, is a file, holds a finished run's output
     *     or holds anything no run writes; nothing is deleted then
     */
    static void prepare(Configuration conf, Path output, Collection<Path> inputs) throws IOException {
        prepare(conf, output, inputs, List.of());
    }

    /**
     * As {@link #prepare(Configuration, Path, Collection)}, for a run of a job whose earlier runs wrote {@code
     * committed}: those hold results whatever they look like (a {@code _SUCCESS} marker can be deleted, or missing
     * after a driver died between its commit and writing it), so the output may neither be one nor overlap one.
     */
    static void prepare(Configuration conf, Path output, Collection<Path> inputs, Collection<Path> committed)
            throws IOException {
        FileSystem fs = output.getFileSystem(conf);
        Path qualified = qualified(conf, output);
        if (qualified.isRoot()) {
            throw new ItchyException("output " + output + " is the root of its file system; choose a new directory");
        }
        for (Path earlier : committed) {
            Path other = qualified(conf, earlier);
            if (within(other, qualified) || within(qualified, other)) {
                throw new ItchyException("output " + output + " overlaps " + earlier
                        + ", the output of a committed run of this job; choose a new directory");
            }
        }
        for (Path input : inputs) {
            Path in = qualified(conf, input);
            if (within(in, qualified) || within(qualified, in)) {
                throw new ItchyException(
                        "output " + output + " overlaps input " + input + "; choose a directory outside the input");
            }
        }
        if (!fs.exists(qualified)) {
            return;
        }
        if (!fs.getFileStatus(qualified).isDirectory()) {
            throw new ItchyException("output " + output + " exists and is a file; choose a new directory");
        }
        if (fs.exists(new Path(qualified, "_SUCCESS"))) {
            throw new ItchyException(
                    "output " + output + " exists and holds a finished run's output; choose a new directory");
        }
        for (FileStatus entry : fs.listStatus(qualified)) {
            String name = entry.getPath().getName();
            if (!RUN_ENTRY.matcher(name).matches()) {
                throw new ItchyException("output " + output + " exists and holds " + name
                        + ", which no run writes; choose a new directory");
            }
        }
        fs.delete(qualified, true);
    }

    /** Qualified, and without a trailing slash (which would hide that a directory is another's parent). */
    private static Path qualified(Configuration conf, Path path) throws IOException {
        Path normalized = new Path(path.toString());
        return normalized.getFileSystem(conf).makeQualified(normalized);
    }

    /** Whether {@code path} is {@code ancestor} or lies below it (both qualified). */
    private static boolean within(Path path, Path ancestor) {
        for (Path p = path; p != null; p = p.getParent()) {
            if (p.equals(ancestor)) {
                return true;
            }
        }
        return false;
    }
}
