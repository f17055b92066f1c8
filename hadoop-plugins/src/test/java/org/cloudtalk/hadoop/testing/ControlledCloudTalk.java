package org.cloudtalk.hadoop.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileUtil;
import org.cloudtalk.common.config.ConfigException;
import org.cloudtalk.server.CloudTalkServer;
import org.cloudtalk.server.config.ServerConfig;

/**
 * A real CloudTalk server on loopback whose host load the test sets: busy hosts have their NIC and disk almost
 * fully used, idle hosts nothing; hosts not named are unknown (heavily loaded, to the server). Pseudo-reservations
 * are off so that consecutive writes see the same answer for the same load, and the tenant rate limit is far above
 * any NameNode's allocation rate. The server can be stopped and started
 * again on the same port, and other listeners put there instead.
 */
public final class ControlledCloudTalk implements AutoCloseable {
    private static final double NIC_BITS = 1e9;
    private static final double DISK_BYTES = 2e8;

    private final Path statusFile;
    /** A directory the instance created and removes on close; null when the caller owns it. */
    private final Path ownDirectory;

    private final AtomicLong version = new AtomicLong(System.currentTimeMillis());
    private int port;
    private CloudTalkServer server;

    private ControlledCloudTalk(Path statusFile, Path ownDirectory) {
        this.statusFile = statusFile;
        this.ownDirectory = ownDirectory;
    }

    /** A server with every one of {@code idle} idle, its status file in {@code dir}. */
    public static ControlledCloudTalk start(Path dir, Collection<String> idle)
            throws IOException, InterruptedException {
        return start(new ControlledCloudTalk(dir.resolve("status.json"), null), idle);
    }

    /** A server with every one of {@code idle} idle, its status file in a directory of its own, removed on close. */
    public static ControlledCloudTalk start(Collection<String> idle) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("cloudtalk-controlled");
        return start(new ControlledCloudTalk(dir.resolve("status.json"), dir), idle);
    }

    private static ControlledCloudTalk start(ControlledCloudTalk cloudTalk, Collection<String> idle)
            throws IOException, InterruptedException {
        try {
            cloudTalk.load(idle, Set.of());
            cloudTalk.startServer();
            return cloudTalk;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cloudTalk.close();
            throw e;
        }
    }

    public String uri() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The hosts' load from now on. */
    public void load(Collection<String> idle, Collection<String> busy) {
        load(idle, busy, Set.of());
    }

    /**
     * The hosts' load from now on; {@code busyReads} hosts have only their disk's reads busy (slow to read from,
     * idle to receive and write).
     */
    public void load(Collection<String> idle, Collection<String> busy, Collection<String> busyReads) {
        StringBuilder json = new StringBuilder("{\"hosts\": {");
        String separator = "";
        for (String host : idle) {
            json.append(separator).append(host(host, 0, 0));
            separator = ", ";
        }
        for (String host : busy) {
            json.append(separator).append(host(host, 0.95, 0.95));
            separator = ", ";
        }
        for (String host : busyReads) {
            json.append(separator).append(host(host, 0, 0.95));
            separator = ", ";
        }
        json.append("}}");
        try {
            Files.writeString(statusFile, json, StandardCharsets.UTF_8);
            // The server re-reads the file when its modification time changes: make sure it does.
            Files.setLastModifiedTime(statusFile, FileTime.fromMillis(version.addAndGet(1000)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh server on the same port with every one of {@code idle} idle: what a test starts from. */
    public void restart(Collection<String> idle) throws IOException, InterruptedException {
        stopServer();
        startServer();
        load(idle, Set.of());
    }

    public void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    public void startServer() throws IOException, InterruptedException {
        try {
            server = CloudTalkServer.start(ServerConfig.from(Map.of(
                    "bind",
                    "127.0.0.1",
                    "port",
                    Integer.toString(port),
                    "status.file",
                    statusFile.toString(),
                    "reservation.hold.ms",
                    "0",
                    // The NameNode is one tenant asking once per block: far above the default rate in benchmarks.
                    "limits.queries.per.second",
                    "1000000",
                    "limits.burst",
                    "100000",
                    // As docs/hadoop-plugins.md asks of a NameNode's server: workers at least twice the client's 16
                    // threads, so that the one tenant may have all its queries in progress (the default's 8 refused
                    // some of twelve concurrent writers' queries, RATE_LIMITED, once in CI).
                    "workers",
                    "32")));
        } catch (ConfigException e) {
            throw new IllegalStateException(e);
        }
        port = server.localAddress().getPort();
    }

    @Override
    public void close() {
        stopServer();
        if (ownDirectory != null) {
            FileUtil.fullyDelete(ownDirectory.toFile());
        }
    }

    private static String host(String address, double used, double readUsed) {
        return String.format(
                java.util.Locale.ROOT,
                "\"%s\": {\"nicRxCapacityBitsPerSecond\": %s, \"nicRxUseBitsPerSecond\": %s,"
                        + " \"nicTxCapacityBitsPerSecond\": %s, \"nicTxUseBitsPerSecond\": %s,"
                        + " \"diskReadCapacityBytesPerSecond\": %s, \"diskReadUseBytesPerSecond\": %s,"
                        + " \"diskWriteCapacityBytesPerSecond\": %s, \"diskWriteUseBytesPerSecond\": %s}",
                address,
                NIC_BITS,
                NIC_BITS * used,
                NIC_BITS,
                NIC_BITS * used,
                DISK_BYTES,
                DISK_BYTES * readUsed,
                DISK_BYTES,
                DISK_BYTES * used);
    }
}
