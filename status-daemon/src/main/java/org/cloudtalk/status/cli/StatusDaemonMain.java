package org.cloudtalk.status.cli;

import java.io.IOException;
import java.io.Reader;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.cloudtalk.status.config.ConfigException;
import org.cloudtalk.status.config.DaemonConfig;
import org.cloudtalk.status.server.StatusDaemon;
import sun.misc.Signal;

/**
 * {@code cloudtalk status-daemon [--config FILE] [--port N] [--bind IP] [--key-file F] [--endpoints IP,...]
 * [--interval-ms N]}: runs until interrupted. Flags override the file. SIGHUP logs the counters line.
 */
public final class StatusDaemonMain {
    private static final Map<String, String> FLAG_KEYS = Map.of(
            "port", "port",
            "bind", "bind",
            "key-file", "key.file",
            "endpoints", "endpoints",
            "interval-ms", "sample.interval.ms");
    private static final String USAGE = "usage: cloudtalk status-daemon [--config FILE] [--port N] [--bind IP] "
            + "[--key-file FILE] [--endpoints IP,...] [--interval-ms N]";

    private StatusDaemonMain() {}

    public static void main(String[] args) throws InterruptedException {
        DaemonConfig config;
        try {
            config = DaemonConfig.from(properties(args));
        } catch (Arguments.UsageException e) {
            System.err.println("status-daemon: " + e.getMessage() + "\n" + USAGE);
            System.exit(64);
            return;
        } catch (ConfigException e) {
            System.err.println("status-daemon: " + e.getMessage());
            System.exit(78);
            return;
        }
        StatusDaemon daemon;
        try {
            daemon = StatusDaemon.start(config);
        } catch (BindException e) {
            System.err.println(
                    "status-daemon: Invalid value " + config.bindAddress().getPort() + " for port: cannot "
                            + "listen on " + config.bindAddress().getAddress().getHostAddress() + ":"
                            + config.bindAddress().getPort() + " (" + e.getMessage() + ")");
            System.exit(78);
            return;
        } catch (IOException e) {
            System.err.println("status-daemon: cannot start: " + e.getMessage());
            System.exit(71);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            daemon.close();
                            stopped.countDown();
                        },
                        "status-daemon-shutdown"));
        Signal.handle(new Signal("HUP"), signal -> daemon.logCounters());
        stopped.await();
    }

    static Map<String, String> properties(String[] args) throws Arguments.UsageException, ConfigException {
        Set<String> known = new java.util.HashSet<>(FLAG_KEYS.keySet());
        known.add("config");
        Arguments arguments = Arguments.parse(args, known);
        if (!arguments.positional().isEmpty()) {
            throw new Arguments.UsageException(
                    "unexpected argument " + arguments.positional().get(0));
        }
        Map<String, String> properties = new LinkedHashMap<>();
        String file = arguments.last("config");
        if (file != null) {
            Properties fromFile = new Properties();
            try (Reader reader = Files.newBufferedReader(Path.of(file))) {
                fromFile.load(reader);
            } catch (IOException e) {
                throw new ConfigException(
                        "Invalid value " + file + " for --config: cannot read it (" + e.getMessage() + ")");
            }
            fromFile.stringPropertyNames().forEach(key -> properties.put(key, fromFile.getProperty(key)));
        }
        FLAG_KEYS.forEach((flag, key) -> {
            String value = arguments.last(flag);
            if (value != null) {
                properties.put(key, value);
            }
        });
        return properties;
    }
}
