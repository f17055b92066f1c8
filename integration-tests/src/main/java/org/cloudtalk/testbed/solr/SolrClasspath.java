package org.cloudtalk.testbed.solr;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.cloudtalk.testbed.TestbedException;
import org.cloudtalk.testbed.proc.ClasspathFile;

/**
 * The class path of the Solr JVMs the testbed starts (ZooKeeper, Solr nodes, the load client): Solr 9.10.1 and its
 * dependencies as the solr-plugin module's build resolved them ({@code solr-plugin/target/testbed-solr.classpath}),
 * and that module's classes (the plugin, the C3 baseline) and test classes (the launchers in
 * {@code org.cloudtalk.solr.testbed}). Solr stays out of the testbed's own class path: it brings versions of Jetty,
 * Jackson and ZooKeeper that Hadoop's JVMs must not see.
 */
record SolrClasspath(String classpath) {
    static final String FILE = "testbed-solr.classpath";

    /** The class path of the solr-plugin module next to the build this class was loaded from. */
    static SolrClasspath ofThisBuild() {
        return of(ClasspathFile.projectRoot().resolve("solr-plugin").resolve("target"));
    }

    static SolrClasspath of(Path solrPluginTarget) {
        Path testClasses = solrPluginTarget.resolve("test-classes");
        Path classes = solrPluginTarget.resolve("classes");
        if (!Files.isDirectory(testClasses.resolve("org/cloudtalk/solr/testbed")) || !Files.isDirectory(classes)) {
            throw new TestbedException("the Solr plugin's classes are missing under " + solrPluginTarget
                    + ": build with `mvn -pl integration-tests -am package -DskipTests`");
        }
        return new SolrClasspath(String.join(
                File.pathSeparator,
                testClasses.toString(),
                classes.toString(),
                ClasspathFile.read(solrPluginTarget.resolve(FILE))));
    }
}
