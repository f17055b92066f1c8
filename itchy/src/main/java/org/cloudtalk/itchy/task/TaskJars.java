package org.cloudtalk.itchy.task;

import java.io.File;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.ClassUtil;
import org.cloudtalk.itchy.ItchyException;

/**
 * Ships the jars Itchy's tasks need through the job's {@code tmpjars}, so that a job submitted to YARN finds HBase
 * (whose jars are not on a NodeManager's classpath) and the user's classes, as HBase's
 * {@code TableMapReduceUtil.addDependencyJars} does; itchy does not depend on hbase-mapreduce for that one call.
 */
public final class TaskJars {
    /**
     * The classes whose jars the tasks load: the HBase client and the HFile writer (hbase-server) with what they load
     * in turn, the list of HBase's own {@code TableMapReduceUtil.addHBaseDependencyJars} less hbase-mapreduce (the
     * YARN test found the hadoop2-compat, hbase-protocol and protobuf 2.5 jars missing without it). By name: several
     * are transitive dependencies only, and one missing locally is missing for the driver too, which fails before
     * submitting.
     */
    private static final List<String> HBASE_CLASSES = List.of(
            "org.apache.hadoop.hbase.HConstants", // hbase-common
            "org.apache.hadoop.hbase.client.Put", // hbase-client
            // hbase-protocol: the client's SecurityInfo loads its (unshaded) token kinds on the first RPC
            "org.apache.hadoop.hbase.protobuf.generated.ClientProtos",
            "com.google.protobuf.Message", // protobuf-java 2.5, which hbase-protocol's classes are generated for
            "org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos", // hbase-protocol-shaded
            "org.apache.hadoop.hbase.regionserver.StoreFileWriter", // hbase-server: Itchy writes HFiles in tasks
            "org.apache.hadoop.hbase.CompatibilityFactory", // hbase-hadoop-compat
            // hbase-hadoop2-compat: the metrics sources an HFile writer asks ServiceLoader for when it closes a file
            "org.apache.hadoop.hbase.regionserver.MetricsRegionServerSourceFactoryImpl",
            "org.apache.hadoop.hbase.metrics.Snapshot", // hbase-metrics-api
            "org.apache.hadoop.hbase.metrics.impl.FastLongHistogram", // hbase-metrics
            "org.apache.hadoop.hbase.zookeeper.ZKWatcher", // hbase-zookeeper
            "org.apache.hadoop.hbase.procedure2.Procedure", // hbase-procedure
            "org.apache.hadoop.hbase.replication.ReplicationUtils", // hbase-replication
            "org.apache.hadoop.hbase.http.HttpServer", // hbase-http
            "org.apache.hbase.thirdparty.com.google.gson.GsonBuilder", // hbase-shaded-gson
            "org.apache.hbase.thirdparty.com.google.protobuf.Message", // hbase-shaded-protobuf
            "org.apache.hbase.thirdparty.com.google.common.collect.Lists", // hbase-shaded-miscellaneous
            "org.apache.hbase.thirdparty.io.netty.channel.Channel", // hbase-shaded-netty
            "org.apache.hadoop.hbase.unsafe.HBasePlatformDependent", // hbase-unsafe
            "org.apache.zookeeper.ZooKeeper",
            "io.opentelemetry.api.trace.Span",
            "io.opentelemetry.context.Context",
            "io.opentelemetry.semconv.ClientAttributes",
            "com.codahale.metrics.MetricRegistry",
            "org.apache.commons.lang3.ArrayUtils");

    private TaskJars() {}

    /**
     * Adds to {@code job}'s {@code tmpjars} the jars of HBase and of {@code userClasses} (nulls skipped), unless the job
     * runs in the local job runner: its tasks share the driver's classpath, and shipping would copy every jar to the
     * staging directory for each job.
     */
    public static void ship(Job job, Class<?>... userClasses) {
        if (MRConfig.LOCAL_FRAMEWORK_NAME.equals(
                job.getConfiguration().get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME))) {
            return;
        }
        Set<String> jars = new LinkedHashSet<>(job.getConfiguration().getStringCollection("tmpjars"));
        ClassLoader loader = TaskJars.class.getClassLoader();
        for (String name : HBASE_CLASSES) {
            try {
                add(jars, Class.forName(name, false, loader));
            } catch (ClassNotFoundException e) {
                throw new ItchyException("Itchy's tasks need " + name + ", which is not on the driver's classpath");
            }
        }
        for (Class<?> c : userClasses) {
            if (c != null) {
                add(jars, c);
            }
        }
        job.getConfiguration().setStrings("tmpjars", jars.toArray(String[]::new));
    }

    /** A class loaded from a directory (a build tree, the tests) has no jar; the local job runner needs none. */
    private static void add(Set<String> jars, Class<?> c) {
        String jar = ClassUtil.findContainingJar(c);
        if (jar != null) {
            jars.add(new File(jar).toURI().toString());
        }
    }
}
