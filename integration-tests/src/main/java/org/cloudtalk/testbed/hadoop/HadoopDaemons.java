package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.cloudtalk.testbed.Testbed;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.net.Host;
import org.cloudtalk.testbed.state.StartedProcess;

/** What the testbed's Hadoop clusters share: their daemons' configuration directories and JVMs. */
final class HadoopDaemons {
    /** Packages Hadoop's own launch scripts open on Java 17: the daemons' web apps (Guice) reflect into them. */
    private static final List<String> OPENED_PACKAGES = List.of(
            "java.lang",
            "java.lang.reflect",
            "java.io",
            "java.net",
            "java.nio",
            "java.util",
            "java.util.concurrent",
            "sun.nio.ch");

    private HadoopDaemons() {}

    /**
     * Writes {@code roleDirectory/conf}: core-site.xml (the default file system), {@code siteFile} with every setting,
     * and a metrics period short enough for {@code /jmx} to be current. Returns the directory.
     */
    static Path writeConf(Path roleDirectory, String siteFile, Map<String, String> settings) throws IOException {
        Path conf = Files.createDirectories(roleDirectory.resolve("conf"));
        HadoopConf.write(conf.resolve("core-site.xml"), Map.of("fs.defaultFS", settings.get("fs.defaultFS")));
        HadoopConf.write(conf.resolve(siteFile), settings);
        // /jmx serves metrics2 sources from a cache refreshed once per metrics period (default 10 s): a run shorter
        // than that read all zeros. One second keeps the plugins' counters current.
        Files.writeString(
                conf.resolve("hadoop-metrics2.properties"),
                "*.period=" + NameNodeJmx.METRICS_PERIOD.toSeconds() + "\n");
        return conf;
    }

    /** Starts a Hadoop daemon's JVM in {@code host}, logging under the run directory's {@code logs}. */
    static StartedProcess startJava(
            Testbed testbed,
            Host host,
            String role,
            String heap,
            String classpath,
            String mainClass,
            List<String> args) {
        List<String> options = new ArrayList<>(jvmOptions(
                testbed,
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        OPENED_PACKAGES.forEach(name -> options.add("--add-opens=java.base/" + name + "=ALL-UNNAMED"));
        return testbed.processes().startJava(Optional.of(host), role, heap, classpath, mainClass, options, args);
    }

    /**
     * {@code more} JVM options after the log directories Hadoop's launch scripts give every JVM
     * ({@code hadoop.log.dir}, and {@code yarn.log.dir} for
     * YARN's): without the latter, defaults such as {@code yarn.nodemanager.log-dirs} expand to a literal
     * {@code ${yarn.log.dir}} directory in the working directory of whoever reads them.
     */
    static List<String> jvmOptions(Testbed testbed, String... more) {
        Path logs = testbed.runDir().resolve("logs");
        List<String> options = new ArrayList<>(List.of("-Dhadoop.log.dir=" + logs, "-Dyarn.log.dir=" + logs));
        options.addAll(List.of(more));
        return List.copyOf(options);
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted", e);
        }
    }
}
