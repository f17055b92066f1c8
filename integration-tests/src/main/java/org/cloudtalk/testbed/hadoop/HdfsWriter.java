package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;

/** A running {@link HdfsWriterMain} in one host, recorded in the testbed's state like every process it starts. */
public final class HdfsWriter {
    private static final String HEAP = "128m";

    private final Testbed testbed;
    private final StartedProcess process;
    private final Path csv;

    private HdfsWriter(Testbed testbed, StartedProcess process, Path csv) {
        this.testbed = testbed;
        this.process = process;
        this.csv = csv;
    }

    static HdfsWriter start(
            Testbed testbed, HdfsCluster cluster, HadoopClasspath classpath, Host client, WriteJob job, Path outDir) {
        String role = "hdfs-writer-" + client.index() + "-" + job.name();
        Path csv = outDir.resolve(role + ".csv");
        try {
            Files.createDirectories(outDir);
            Files.deleteIfExists(csv);
        } catch (IOException e) {
            throw new TestbedException("cannot prepare " + csv + ": " + e.getMessage(), e);
        }
        StartedProcess process = testbed.processes()
                .startJava(
                        Optional.of(client),
                        role,
                        HEAP,
                        classpath.testbedClasses() + java.io.File.pathSeparator + classpath.hadoop(),
                        HdfsWriterMain.class.getName(),
                        List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"),
                        List.of(
                                "--namenode", cluster.uri().toString(),
                                "--dir", "/writes/" + job.name(),
                                "--files", Integer.toString(job.files()),
                                "--bytes", Long.toString(job.bytes()),
                                "--replication", Integer.toString(job.replication()),
                                "--min-pause-ms", Long.toString(job.minPause().toMillis()),
                                "--max-pause-ms", Long.toString(job.maxPause().toMillis()),
                                "--seed", Long.toString(job.seed()),
                                "--out", csv.toString()));
        return new HdfsWriter(testbed, process, csv);
    }

    /**
     * Waits up to {@code timeout} for the writer to finish and returns what it wrote, one row per file; stops it and
     * throws if it runs longer or ends without its CSV.
     */
    public List<FileWrite> await(Duration timeout) {
        testbed.processes().awaitExit(process, "the HDFS writer " + process.role(), timeout);
        if (!Files.exists(csv)) {
            throw new TestbedException(
                    "the HDFS writer " + process.role() + " ended without its results: " + process.logTail());
        }
        try {
            return Files.readAllLines(csv).stream()
                    .skip(1)
                    .map(FileWrite::fromCsv)
                    .toList();
        } catch (IOException | IllegalArgumentException e) {
            throw new TestbedException("cannot read " + csv + ": " + e.getMessage(), e);
        }
    }
}
