package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;

/**
 * A running HDFS client main ({@link HdfsWriterMain}, {@link HdfsReaderMain}) in one host, recorded in the testbed's
 * state like every process it starts; its results are one CSV row per file, of type {@code R}.
 */
public final class HdfsClient<R> {
    private static final String HEAP = "128m";

    private final Testbed testbed;
    private final StartedProcess process;
    private final Path csv;
    private final Function<String, R> row;

    private HdfsClient(Testbed testbed, StartedProcess process, Path csv, Function<String, R> row) {
        this.testbed = testbed;
        this.process = process;
        this.csv = csv;
        this.row = row;
    }

    /** Starts {@code mainClass} in {@code host} with {@code args} followed by {@code --out CSV}. */
    static <R> HdfsClient<R> start(
            Testbed testbed,
            HadoopClasspath classpath,
            Host host,
            String role,
            Class<?> mainClass,
            List<String> args,
            Path outDir,
            Function<String, R> row) {
        Path csv = outDir.resolve(role + ".csv");
        try {
            Files.createDirectories(outDir);
            Files.deleteIfExists(csv);
        } catch (IOException e) {
            throw new TestbedException("cannot prepare " + csv + ": " + e.getMessage(), e);
        }
        List<String> withOut = new java.util.ArrayList<>(args);
        withOut.addAll(List.of("--out", csv.toString()));
        StartedProcess process = testbed.processes()
                .startJava(
                        Optional.of(host),
                        role,
                        HEAP,
                        classpath.testbedClasses() + java.io.File.pathSeparator + classpath.hadoop(),
                        mainClass.getName(),
                        HadoopDaemons.jvmOptions(testbed, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                        withOut);
        return new HdfsClient<>(testbed, process, csv, row);
    }

    /**
     * Waits up to {@code timeout} for the client to finish and returns what it recorded, one row per file; stops it
     * and throws if it runs longer or ends without its CSV.
     */
    public List<R> await(Duration timeout) {
        String what = "the HDFS client " + process.role();
        testbed.processes().awaitExit(process, what, timeout);
        if (!Files.exists(csv)) {
            throw new TestbedException(what + " ended without its results: " + process.logTail());
        }
        try {
            return Files.readAllLines(csv).stream().skip(1).map(row).toList();
        } catch (IOException | IllegalArgumentException e) {
            throw new TestbedException("cannot read " + csv + ": " + e.getMessage(), e);
        }
    }
}
