package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * What the testbed's HDFS client mains ({@link HdfsWriterMain}, {@link HdfsReaderMain}) share: a seeded random pause
 * before each file, polling sleeps, and results that appear all at once.
 */
final class ClientMains {
    private ClientMains() {}

    /** Sleeps a time drawn uniformly from [{@code min}, {@code max}] by {@code random}. */
    static void randomPause(Random random, Duration min, Duration max) throws IOException {
        sleep(min.toMillis() + (long) (random.nextDouble() * (max.toMillis() - min.toMillis())));
    }

    /** Sleeps, turning an interrupt into an {@link IOException}. */
    static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Writes {@code lines} to {@code out} atomically: the testbed takes a CSV that exists as complete. */
    static void writeCsv(Path out, List<String> lines) throws IOException {
        Path temp = out.resolveSibling(out.getFileName() + ".tmp");
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(temp, lines);
        Files.move(temp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
