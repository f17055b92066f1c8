package org.cloudtalk.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The build check on the plugins' jars, one per daemon (run by surefire in the {@code verify} phase, after the shade
 * plugin): every class in each is CloudTalk's own, every third-party class is relocated under
 * {@code org.cloudtalk.shaded}, so nothing can clash with what the daemon already has on its classpath, and each holds
 * its own plugin and not the others'. Hadoop is in none of them.
 */
class ShadedJarCheck {
    private static final String OWN = "org/cloudtalk/";

    /** The jars, by the daemon that loads them; their paths come from the system property {@code shaded.jar.NAME}. */
    enum Target {
        NAMENODE(
                "hdfs/",
                "org/cloudtalk/hadoop/hdfs/write/CloudTalkBlockPlacementPolicy.class",
                "org/cloudtalk/hadoop/hdfs/read/CloudTalkNetworkTopology.class"),
        RESOURCEMANAGER("yarn/", "org/cloudtalk/hadoop/yarn/CloudTalkNodeLookupPolicy.class"),
        JOB("mapreduce/", "org/cloudtalk/hadoop/mapreduce/CloudTalkInputFormat.class");

        private final String ownPackage;
        private final List<String> entryPoints;

        Target(String ownPackage, String... entryPoints) {
            this.ownPackage = OWN + "hadoop/" + ownPackage;
            this.entryPoints = List.of(entryPoints);
        }
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void everyThirdPartyClassIsRelocated(Target target) throws Exception {
        String property = "shaded.jar." + target.name().toLowerCase(java.util.Locale.ROOT);
        // Only the verify-phase execution names the jars; a -Dtest=ShadedJarCheck in the test phase has none yet.
        assumeTrue(System.getProperty(property) != null, "runs in the verify phase, after the shade plugin");
        File jar = new File(System.getProperty(property));
        assertThat(jar).as("the shaded jar (system property " + property + ")").isFile();
        List<String> unrelocated = new ArrayList<>();
        List<String> relocated = new ArrayList<>();
        List<String> plugins = new ArrayList<>();
        List<String> otherPlugins = new ArrayList<>();
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
                } else if (name.startsWith(target.ownPackage)) {
                    plugins.add(name);
                } else if (isPlugin(name)) {
                    otherPlugins.add(name);
                }
            }
        }
        assertThat(unrelocated).as("classes outside org.cloudtalk in " + jar).isEmpty();
        assertThat(relocated).as("the relocated ANTLR runtime").anyMatch(name -> name.contains("/org/antlr/"));
        assertThat(plugins).containsAll(target.entryPoints);
        assertThat(otherPlugins).as("other daemons' plugins in " + jar).isEmpty();
    }

    private static boolean isPlugin(String name) {
        for (Target target : Target.values()) {
            if (name.startsWith(target.ownPackage)) {
                return true;
            }
        }
        return false;
    }
}
