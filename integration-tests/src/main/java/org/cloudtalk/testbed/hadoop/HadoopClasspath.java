package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cloudtalk.testbed.TestbedException;

/**
 * The class paths of the Hadoop JVMs the testbed starts, as the module's build wrote them (maven-dependency-plugin
 * {@code build-classpath}, jars in the local Maven repository): {@code hadoop} for every Hadoop JVM, the CloudTalk
 * NameNode and ResourceManager plugins' shaded jars for daemons that use them, and the testbed's own classes for the clients it runs in
 * hosts (the HDFS writer). Nothing is downloaded at run time.
 */
public record HadoopClasspath(
        String hadoop, String nameNodePlugin, String resourceManagerPlugin, String testbedClasses) {
    static final String HADOOP_FILE = "hadoop.classpath";
    static final String PLUGIN_FILE = "namenode-plugin.classpath";
    static final String RESOURCE_MANAGER_PLUGIN_FILE = "resourcemanager-plugin.classpath";

    public HadoopClasspath {
        requireNonNull(hadoop, "hadoop is null");
        requireNonNull(nameNodePlugin, "nameNodePlugin is null");
        requireNonNull(resourceManagerPlugin, "resourceManagerPlugin is null");
        requireNonNull(testbedClasses, "testbedClasses is null");
    }

    /** The class paths of the build this class was loaded from ({@code integration-tests/target}). */
    public static HadoopClasspath ofThisBuild() {
        Path classes;
        try {
            classes = Path.of(HadoopClasspath.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new TestbedException("cannot locate the testbed's classes: " + e.getMessage(), e);
        }
        // target/classes when run from the tree (bin/cloudtalk, surefire), target/integration-tests-*.jar otherwise.
        return of(classes.getParent(), classes);
    }

    /** The class paths written into {@code buildDirectory}, with the testbed's classes at {@code testbedClasses}. */
    static HadoopClasspath of(Path buildDirectory, Path testbedClasses) {
        return new HadoopClasspath(
                read(buildDirectory.resolve(HADOOP_FILE)),
                read(buildDirectory.resolve(PLUGIN_FILE)),
                read(buildDirectory.resolve(RESOURCE_MANAGER_PLUGIN_FILE)),
                testbedClasses.toString());
    }

    private static String read(Path file) {
        String classpath;
        try {
            classpath = Files.readString(file).strip();
        } catch (IOException e) {
            throw new TestbedException("the Hadoop class path " + file + " is missing (" + e.getMessage()
                    + "): build the testbed with `mvn -pl integration-tests -am package -DskipTests`");
        }
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            if (!Files.exists(Path.of(entry))) {
                throw new TestbedException("the Hadoop class path " + file + " names " + entry
                        + ", which does not exist: rebuild with `mvn -pl integration-tests -am package -DskipTests`");
            }
        }
        return classpath;
    }
}
