package org.cloudtalk.testbed.proc;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cloudtalk.testbed.TestbedException;

/**
 * The class path files the build writes for the JVMs the testbed starts with class paths of their own (Hadoop's
 * daemons, Solr's nodes): maven-dependency-plugin's {@code build-classpath}, jars in the local Maven repository, so
 * that nothing is downloaded at run time.
 */
public final class ClasspathFile {
    private static final String REBUILD = "rebuild with `mvn -pl integration-tests -am package -DskipTests`";

    private ClasspathFile() {}

    /**
     * Where the testbed's own classes are: {@code integration-tests/target/classes} when run from the tree
     * ({@code bin/cloudtalk}, surefire), {@code integration-tests/target/integration-tests-*.jar} otherwise.
     */
    public static Path testbedClasses() {
        try {
            return Path.of(ClasspathFile.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new TestbedException("cannot locate the testbed's classes: " + e.getMessage(), e);
        }
    }

    /** The project's root directory, above the integration-tests module whose build this class was loaded from. */
    public static Path projectRoot() {
        // integration-tests/target/classes (or the module's jar) -> the project's root.
        return testbedClasses().getParent().getParent().getParent();
    }

    /** The class path in {@code file}, every entry of which must exist. */
    public static String read(Path file) {
        String classpath;
        try {
            classpath = Files.readString(file).strip();
        } catch (IOException e) {
            throw new TestbedException(
                    "the class path file " + file + " is missing (" + e.getMessage() + "): " + REBUILD);
        }
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!Files.exists(Path.of(entry))) {
                throw new TestbedException(
                        "the class path file " + file + " names " + entry + ", which does not exist: " + REBUILD);
            }
        }
        return classpath;
    }
}
