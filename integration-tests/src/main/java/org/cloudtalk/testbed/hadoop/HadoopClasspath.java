package org.cloudtalk.testbed.hadoop;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import org.cloudtalk.testbed.proc.ClasspathFile;

/**
 * The class paths of the Hadoop JVMs the testbed starts, as the module's build wrote them (maven-dependency-plugin
 * {@code build-classpath}, read by {@link ClasspathFile}): {@code hadoop} for every Hadoop JVM, the CloudTalk
 * NameNode and ResourceManager plugins' shaded jars for daemons that use them, the job plugin's for MapReduce job
 * clients and their containers, and the testbed's own classes for the clients it runs in hosts (the HDFS writer). Nothing is downloaded at run time.
 */
public record HadoopClasspath(
        String hadoop, String nameNodePlugin, String resourceManagerPlugin, String jobPlugin, String testbedClasses) {
    static final String HADOOP_FILE = "hadoop.classpath";
    static final String PLUGIN_FILE = "namenode-plugin.classpath";
    static final String RESOURCE_MANAGER_PLUGIN_FILE = "resourcemanager-plugin.classpath";
    static final String JOB_PLUGIN_FILE = "job-plugin.classpath";

    public HadoopClasspath {
        requireNonNull(hadoop, "hadoop is null");
        requireNonNull(nameNodePlugin, "nameNodePlugin is null");
        requireNonNull(resourceManagerPlugin, "resourceManagerPlugin is null");
        requireNonNull(jobPlugin, "jobPlugin is null");
        requireNonNull(testbedClasses, "testbedClasses is null");
    }

    /** The class paths of the build this class was loaded from ({@code integration-tests/target}). */
    public static HadoopClasspath ofThisBuild() {
        Path classes = ClasspathFile.testbedClasses();
        return of(classes.getParent(), classes);
    }

    /** The class paths written into {@code buildDirectory}, with the testbed's classes at {@code testbedClasses}. */
    static HadoopClasspath of(Path buildDirectory, Path testbedClasses) {
        return new HadoopClasspath(
                ClasspathFile.read(buildDirectory.resolve(HADOOP_FILE)),
                ClasspathFile.read(buildDirectory.resolve(PLUGIN_FILE)),
                ClasspathFile.read(buildDirectory.resolve(RESOURCE_MANAGER_PLUGIN_FILE)),
                ClasspathFile.read(buildDirectory.resolve(JOB_PLUGIN_FILE)),
                testbedClasses.toString());
    }
}
