package org.cloudtalk.itchy.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.regionserver.MetricsRegionServerSourceFactoryImpl;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.ClassUtil;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/** What a YARN container needs that a NodeManager's classpath lacks reaches it through {@code tmpjars}. */
class TaskJarsTest {
    @Test
    void shipsTheHBaseJarsTheTasksLoadAndTheUsersJars() throws Exception {
        Job job = Job.getInstance(new Configuration(false));
        job.getConfiguration().set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
        job.getConfiguration().set("tmpjars", "file:/already/there.jar");

        TaskJars.ship(job, Text.class, null);

        Collection<String> jars = job.getConfiguration().getStringCollection("tmpjars");
        assertThat(jars)
                .startsWith("file:/already/there.jar")
                .contains(
                        jarOf(Connection.class),
                        jarOf(StoreFileWriter.class),
                        jarOf(MetricsRegionServerSourceFactoryImpl.class),
                        jarOf(ZooKeeper.class),
                        jarOf(Text.class))
                .doesNotHaveDuplicates();
        assertThat(jars).allSatisfy(jar -> assertThat(new File(java.net.URI.create(jar)).getName())
                .endsWith(".jar"));
    }

    @Test
    void shipsNothingToTheLocalJobRunnerWhoseTasksShareTheDriversClasspath() throws Exception {
        Job job = Job.getInstance(new Configuration(false));

        TaskJars.ship(job, Text.class);

        assertThat(job.getConfiguration().get("tmpjars")).isNull();
    }

    private static String jarOf(Class<?> c) {
        return new File(ClassUtil.findContainingJar(c)).toURI().toString();
    }
}
