package org.cloudtalk.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The build check on the NameNode jar (run by surefire in the {@code verify} phase, after the shade plugin): every
 * class in it is CloudTalk's own, and every third-party class is relocated under {@code org.cloudtalk.shaded}, so
 * nothing in it can clash with what the NameNode already has on its classpath. Hadoop is not in it at all.
 */
class ShadedJarCheck {
    private static final String OWN = "org/cloudtalk/";

    @Test
    void everyThirdPartyClassIsRelocated() throws Exception {
        // Only the verify-phase execution names the jar; a -Dtest=ShadedJarCheck in the test phase has none yet.
        assumeTrue(System.getProperty("shaded.jar") != null, "runs in the verify phase, after the shade plugin");
        File jar = new File(System.getProperty("shaded.jar"));
        assertThat(jar).as("the shaded jar (system property shaded.jar)").isFile();
        List<String> unrelocated = new ArrayList<>();
        List<String> relocated = new ArrayList<>();
        List<String> plugins = new ArrayList<>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (!name.endsWith(".class")) {
                    continue;
                }
                if (!name.startsWith(OWN)) {
                    unrelocated.add(name);
                } else if (name.startsWith(OWN + "shaded/")) {
                    relocated.add(name);
                } else if (name.startsWith(OWN + "hadoop/")) {
                    plugins.add(name);
                }
            }
        }
        assertThat(unrelocated).as("classes outside org.cloudtalk in " + jar).isEmpty();
        assertThat(relocated).as("the relocated ANTLR runtime").anyMatch(name -> name.contains("/org/antlr/"));
        assertThat(plugins)
                .contains(
                        "org/cloudtalk/hadoop/hdfs/write/CloudTalkBlockPlacementPolicy.class",
                        "org/cloudtalk/hadoop/hdfs/read/CloudTalkNetworkTopology.class");
    }
}
