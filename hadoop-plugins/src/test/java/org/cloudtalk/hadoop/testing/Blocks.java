package org.cloudtalk.hadoop.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.ToolRunner;

/** Writing files and looking at where their blocks are, as a test needs it. */
public final class Blocks {
    private Blocks() {}

    /** Writes {@code bytes} random bytes with 3 replicas; the write must succeed. */
    public static void write(DistributedFileSystem fs, Path path, int bytes) throws IOException {
        write(fs, path, bytes, (short) 3);
    }

    public static void write(DistributedFileSystem fs, Path path, int bytes, short replication) throws IOException {
        byte[] data = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(data);
        try (FSDataOutputStream out = fs.create(path, replication)) {
            out.write(data);
        }
    }

    /** Each block's replicas, once the NameNode knows of all three (DataNodes report them after the close). */
    public static List<DatanodeInfo[]> replicas(DistributedFileSystem fs, Path path) throws Exception {
        return replicas(fs, path, (short) 3);
    }

    public static List<DatanodeInfo[]> replicas(DistributedFileSystem fs, Path path, short replication)
            throws Exception {
        DFSTestUtil.waitReplication(fs, path, replication);
        List<DatanodeInfo[]> replicas = new ArrayList<>();
        for (LocatedBlock block : fs.getClient()
                .getLocatedBlocks(path.toUri().getPath(), 0, Long.MAX_VALUE)
                .getLocatedBlocks()) {
            replicas.add(block.getLocations());
        }
        return replicas;
    }

    public static Set<String> addresses(DatanodeInfo[] replicas) {
        Set<String> addresses = new TreeSet<>();
        for (DatanodeInfo replica : replicas) {
            addresses.add(replica.getIpAddr());
        }
        return addresses;
    }

    public static Set<String> racks(DatanodeInfo[] replicas) {
        Set<String> racks = new TreeSet<>();
        for (DatanodeInfo replica : replicas) {
            racks.add(replica.getNetworkLocation());
        }
        return racks;
    }

    /** What {@code hdfs fsck PATH -racks} prints. */
    public static String fsck(Configuration conf, Path path) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            ToolRunner.run(new DFSck(conf, print), new String[] {path.toUri().getPath(), "-racks"});
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
