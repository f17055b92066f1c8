package org.cloudtalk.itchy;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.cloudtalk.itchy.store.JobRecord;
import org.cloudtalk.itchy.technique.Parallel;

/** A job's input files as Itchy tracks them: the files under the given paths, and whether processed ones changed. */
final class InputFiles {
    /** Input files whose length and checksum are asked for at once; each ask is a few short RPCs. */
    private static final int STATE_THREADS = 8;

    private final Configuration conf;

    InputFiles(Configuration conf) {
        this.conf = requireNonNull(conf, "conf is null");
    }

    /** Base input may only grow by new files: a changed base file would make the stored offsets and values wrong. */
    void checkUnchanged(JobRecord record) throws IOException {
        List<JobRecord.Dataset> datasets = record.datasets();
        List<FileState> now;
        try {
            now = states(
                    datasets.stream().map(dataset -> new Path(dataset.path())).toList());
        } catch (FileNotFoundException gone) {
            throw new ItchyException("an input of an earlier run is gone (" + gone.getMessage()
                    + "); Itchy needs its inputs to stay as they were");
        }
        for (int i = 0; i < datasets.size(); i++) {
            JobRecord.Dataset dataset = datasets.get(i);
            FileState file = now.get(i);
            if (file.length() != dataset.length() || !file.checksum().equals(dataset.checksum())) {
                throw new ItchyException("input " + dataset.path() + " was modified since it was processed (length "
                        + dataset.length() + " -> " + file.length() + "); Itchy supports appending records as new "
                        + "files, not changing processed ones: run a new first job");
            }
        }
    }

    /** A file as a run saw it: its length, and its checksum (its modification time where the file system has none). */
    record FileState(String path, long length, String checksum) {
        JobRecord.Dataset dataset(int id, int increment) {
            return new JobRecord.Dataset(id, path, length, checksum, increment);
        }
    }

    /**
     * The files' states, in order, asked for several at a time: a file's checksum is a round trip to the DataNode of
     * each of its blocks, which over a large base input adds up when asked one file after another.
     */
    List<FileState> states(List<Path> files) throws IOException {
        return Parallel.map(STATE_THREADS, files, "checking the input files", this::state);
    }

    private FileState state(Path file) throws IOException {
        FileSystem fs = file.getFileSystem(conf);
        FileStatus status = fs.getFileStatus(file);
        FileChecksum checksum = fs.getFileChecksum(file);
        String text = checksum == null
                ? "mtime:" + status.getModificationTime()
                : checksum.getAlgorithmName() + ":" + HexFormat.of().formatHex(checksum.getBytes());
        return new FileState(qualified(file), status.getLen(), text);
    }

    String qualified(Path path) throws IOException {
        return path.getFileSystem(conf).makeQualified(path).toString();
    }

    /**
     * Every visible file under the given paths, in a stable order, each once: a file named twice (itself and its
     * directory, say) would otherwise have its records counted twice.
     *
     * @throws ItchyException if a given directory holds a visible directory
     */
    List<Path> expand(List<Path> paths) throws IOException {
        SortedSet<Path> files = new TreeSet<>();
        for (Path path : paths) {
            FileSystem fs = path.getFileSystem(conf);
            if (hidden(path.getName()) && fs.getFileStatus(path).isFile()) {
                // Named on purpose, skipped in silence it would leave "no files" and the user guessing why.
                throw new ItchyException("input " + path + " is a hidden file (its name starts with '_' or '.'),"
                        + " which Hadoop's input formats skip; rename it");
            }
            for (FileStatus status : listed(fs, path)) {
                String fileName = status.getPath().getName();
                if (hidden(fileName)) {
                    continue; // hidden, as Hadoop's input formats hide them
                }
                if (status.isDirectory()) {
                    // Skipping it would leave its records out of the result without a word (Hadoop's text input
                    // fails on it instead).
                    throw new ItchyException("input " + path + " holds a directory, " + status.getPath()
                            + "; Itchy reads the files directly in an input directory: name that directory as an"
                            + " input of its own");
                }
                checkNameIsAPath(status.getPath());
                files.add(followingLinks(fs, status.getPath()));
            }
        }
        return List.copyOf(files);
    }

    /** The files at {@code path}, or, where there are none and it looks like a glob pattern, why. */
    private static FileStatus[] listed(FileSystem fs, Path path) throws IOException {
        try {
            return fs.listStatus(path);
        } catch (FileNotFoundException e) {
            if (holdsGlobCharacter(path.toUri().getPath())) {
                throw new ItchyException("input " + path + " does not exist; Itchy takes inputs as they are named and"
                        + " does not expand glob patterns: name the files, or their directory");
            }
            throw e;
        }
    }

    /** What Hadoop's glob patterns give a meaning: a path holding one names a pattern, not itself. */
    private static final String GLOB_CHARACTERS = "*?[]{}\\";

    private static boolean holdsGlobCharacter(String path) {
        return path.chars().anyMatch(c -> GLOB_CHARACTERS.indexOf(c) >= 0);
    }

    /**
     * Hadoop's input formats glob each input path, and globbing turns each name in it back into a path: a name with a
     * colon reads as a scheme (the job fails with an IllegalArgumentException that names no file), one with a glob
     * character as a pattern (which may match other files too, read twice, or none).
     */
    private static void checkNameIsAPath(Path file) {
        try {
            new Path(file.getName());
        } catch (IllegalArgumentException e) {
            throw new ItchyException("input " + file + " has a name Hadoop cannot read as a path (" + e.getMessage()
                    + "; a colon in a file name is the usual cause): rename it");
        }
        String path = file.toUri().getPath();
        if (holdsGlobCharacter(path)) {
            throw new ItchyException("input " + file + " has a name Hadoop's input formats read as a glob pattern (it"
                    + " holds one of " + GLOB_CHARACTERS + "), which may match other files or none: rename it");
        }
    }

    private static boolean hidden(String fileName) {
        return fileName.startsWith("_") || fileName.startsWith(".");
    }

    /**
     * The file as its file system names it once symbolic links are followed: on the local file system a link to a
     * processed file (or to its directory) would else be a new file, its records counted twice. HDFS, where links
     * are off by default, names its files as they are.
     */
    private static Path followingLinks(FileSystem fs, Path file) throws IOException {
        Path qualified = fs.makeQualified(file);
        if (!"file".equals(qualified.toUri().getScheme())) {
            return qualified;
        }
        return fs.makeQualified(
                new Path(java.nio.file.Path.of(qualified.toUri()).toRealPath().toUri()));
    }
}
